// The one-file form of main.cpp, body.h and body.cpp (see main.cpp for the
// counts worked out by hand, which both must meet).
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 1024 fills 2 fill_bytes 512
// ferry-test: from_device 4 from_device_bytes 1024
// ferry-test: dispatches 4
// ferry-test: unnamed_from_device 4 unnamed_from_device_bytes 1024
#include <ferry/ferry.hpp>

class Body {
public:
  Body(int n, float start);
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt);
  /// Adds `v` to one position on the host.
  void nudge(int i, float v);
  double sum() const {
    double s = 0;
    for (float p : pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};
FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

Body::Body(int n, float start) : pos_(n, start) {}

void Body::step(ferry::ComputeContext &cc, float dt) {
  cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
}

void Body::nudge(int i, float v) { pos_[i] += v; }

#include <cstdio>
#include <vector>

static void drive(ferry::ComputeContext &cc, Body &b, float dt) {
  b.step(cc, dt);
  b.nudge(3, 1.0f);
  b.step(cc, dt);
}

int main() {
  std::vector<Body> bodies;
  bodies.emplace_back(64, 0.0f);
  bodies.emplace_back(64, 2.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies)
      drive(cc, b, 0.25f);
  });
  for (const Body &b : bodies)
    std::printf("%.3f\n", b.sum());
  return 0;
}
