#include "../golden/particles.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc,
                       ferry::Buffer<Particle> &particles, Params p,
                       int count, int steps) {
  for (int s = 0; s < steps; ++s)
    cc.dispatch(advance, ferry::Range(1024), particles, p, count);
}

int main() {
  const int count = 1000, steps = 3;
  ferry::Buffer<Particle> particles(1024);
  for (Particle &q : particles) {
    q.position = {check::uniform(-5.0f, 5.0f), check::uniform(0.0f, 0.1f),
                  check::uniform(-5.0f, 5.0f)};
    q.velocity = {check::uniform(-1.0f, 1.0f), check::uniform(-2.0f, 0.001f),
                  check::uniform(-1.0f, 1.0f)};
    q.mass = check::uniform(0.5f, 2.0f);
    q.alive = check::uniform(0, 9) != 0;
  }
  Params p{0.05f, 0.1f, {0.0f, -9.81f, 0.0f}};
  std::vector<Particle> ref = check::copy(particles);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, particles, p, count, steps);
  });
  for (int s = 0; s < steps; ++s)
    check::host(advance, 1024, 1, 1, ref.data(), p, count);
  std::vector<Particle> dev = check::copy(particles);
  ferry::Buffer<float> flat(count * 7);
  std::vector<float> rflat(count * 7);
  for (int i = 0; i < count; ++i) {
    const Particle *ps[2] = {&dev[i], &ref[i]};
    for (int k = 0; k < 2; ++k) {
      float v[7] = {ps[k]->position.x, ps[k]->position.y, ps[k]->position.z,
                    ps[k]->velocity.x, ps[k]->velocity.y, ps[k]->velocity.z,
                    ps[k]->alive ? 1.0f : 0.0f};
      for (int j = 0; j < 7; ++j)
        (k == 0 ? flat[i * 7 + j] : rflat[i * 7 + j]) = v[j];
    }
  }
  check::values("particles", flat, rflat);
  return check::report("particles");
}
