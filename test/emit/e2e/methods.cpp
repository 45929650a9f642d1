#include "../golden/methods.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<Body> &bodies,
                       ferry::Buffer<float> &lens, int n) {
  cc.dispatch(move, ferry::Range(n), bodies, lens, 0.1f);
}

int main() {
  const int n = 200;
  ferry::Buffer<Body> bodies(n);
  for (Body &b : bodies)
    b = {{check::uniform(-5.0f, 5.0f), check::uniform(-5.0f, 5.0f)},
         {check::uniform(-1.0f, 1.0f), check::uniform(-1.0f, 1.0f)}};
  ferry::Buffer<float> lens(n);
  std::vector<Body> rbodies = check::copy(bodies);
  std::vector<float> rlens(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, bodies, lens, n); });
  check::host(move, n, 1, 1, rbodies.data(), rlens.data(), 0.1f);
  ferry::Buffer<float> flat(n * 4);
  std::vector<float> rflat(n * 4);
  for (int i = 0; i < n; ++i) {
    const Body &d = bodies[i], &r = rbodies[i];
    float dv[4] = {d.p.x, d.p.y, d.v.x, d.v.y};
    float rv[4] = {r.p.x, r.p.y, r.v.x, r.v.y};
    for (int k = 0; k < 4; ++k) {
      flat[i * 4 + k] = dv[k];
      rflat[i * 4 + k] = rv[k];
    }
  }
  check::values("bodies", flat, rflat);
  check::values("lens", lens, rlens);
  return check::report("methods");
}
