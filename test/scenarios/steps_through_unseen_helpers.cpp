// Issue 33 (found by a review of the cross-file planning, wrong in one file
// too): a compute lambda reaches a helper that Ferry does not plan, because
// it is called through a function pointer, a std::function, or is a
// constructor; the helper steps a body (a compute function), writes it on
// the host (`nudge`), and steps it again. Each step is then planned alone,
// as an entry: it copies its buffer in unconditionally and brings it home.
// But the runtime moved only what its bookkeeping said was stale on the
// device, and the host write between the steps is code the plan does not
// see: the second step ran without the nudge (the sums came out 1 short
// per body and compute). The unconditional copy to the device now moves
// every piece the host holds valid, and none the device holds newer.
//
// By hand (2 bodies of 64 floats, 256 B each; each compute runs the helper
// on both): each step copies `pos_` in and brings it home, the first step
// of all a fill (it starts uniform): per compute, in 4 and out 4.
// In 12 (3072 B), 2 of them fills (512 B); out 12 (3072 B); dispatches 12.
// ferry-test: golden
// ferry-test: to_device 12 to_device_bytes 3072 fills 2 fill_bytes 512
// ferry-test: from_device 12 from_device_bytes 3072
// ferry-test: dispatches 12
#include <ferry/ferry.hpp>

#include <cstdio>
#include <functional>
#include <vector>

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

class Body {
public:
  Body(int n, float start) : pos_(n, start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt) {
    cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
  }
  void nudge(int i, float v) { pos_[i] += v; }
  double sum() const {
    double s = 0;
    for (float p : pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};

static void drive(ferry::ComputeContext &cc, Body &b, float dt) {
  b.step(cc, dt);
  b.nudge(3, 1.0f);
  b.step(cc, dt);
}

struct Drive {
  Drive(ferry::ComputeContext &cc, Body &b, float dt) { drive(cc, b, dt); }
};

static void show(const std::vector<Body> &bodies) {
  for (const Body &b : bodies)
    std::printf("%.3f ", b.sum());
  std::printf("\n");
}

int main() {
  std::vector<Body> bodies;
  bodies.emplace_back(64, 0.0f);
  bodies.emplace_back(64, 2.0f);
  ferry::Accelerator acc;
  void (*through)(ferry::ComputeContext &, Body &, float) = drive;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies)
      through(cc, b, 0.25f);
  });
  show(bodies);
  std::function<void(ferry::ComputeContext &, Body &, float)> wrapped = drive;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies)
      wrapped(cc, b, 0.5f);
  });
  show(bodies);
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies)
      Drive run(cc, b, 0.125f);
  });
  show(bodies);
  return 0;
}
