// Issue 33 (found by the generator's new `objvirtual` form, 8 of 120
// programs of seed vx2): a class whose buffer is private overrides a pure
// virtual compute method of a base that holds no buffers, and its objects
// (in a std::vector, or one local) are stepped through the base
// (`Stepper &s = b; s.step(cc, dt)`, `static_cast<Stepper &>(b).step(…)`).
// Where the override is also called directly (`bodies[1].step(cc, …)`),
// it is planned as a callee that leaves its buffers to the run-time state,
// but a lambda making only calls through the base was not planned at all:
// the results never came home (the old tool printed `after 1: 0.000
// 64.000` where the reference prints `23.625 87.625`). A virtual call
// handed the ComputeContext is now a call Ferry cannot see into: the
// function making it is planned, the call counts as reading and writing on
// the host any buffer of the types the base's derived classes hold
// (`hostWritesAllOf<float>`), and the exits bring home whatever of those
// the device then holds newer. Such a call also splits a loop into steps
// as a planned call does (seed vx3, 2 of 120 programs): a host read after
// it in the same trip gets its own line, where the first fix put the
// loop's lines all before the loop (`stepped: 0.000`).
//
// By hand (pos_: 64 floats, 256 B; each starts as made, so a first copy
// in is a fill):
//   compute 1: each step copies its body in (a fill, 256 B), and the read
//     after it brings that body home (256 B): 2 in (512 B), 2 out.
//   compute 2: the call through the base counts as writing every float
//     buffer, so step copies b0 in (256); before nudge b0 comes home
//     (256); the next call through the base marks every float buffer
//     stale again, so step copies b0 in (256) and bodies[1].step copies b1
//     in (256); the exit brings both home (512).
//   compute 3 (a local body through a pointer to the base): in as a fill
//     (256), home at the exit (256).
//   In 6 (1,536 B, 3 fills of 768 B); out 6 (1,536 B, all by the run-time
//   state: unnamed); dispatches 6.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 1536 fills 3 fill_bytes 768
// ferry-test: from_device 6 from_device_bytes 1536
// ferry-test: unnamed_from_device 6 unnamed_from_device_bytes 1536
// ferry-test: dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>
#include <vector>

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

struct Stepper {
  virtual ~Stepper() = default;
  FERRY_COMPUTE virtual void step(ferry::ComputeContext &cc, float dt) = 0;
};

class Body : public Stepper {
public:
  explicit Body(float start) : pos_(64, start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt) override {
    cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
  }
  void nudge(float v) { pos_[5] += v; }
  double sum() const {
    double s = 0;
    for (float p : pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};

int main() {
  std::vector<Body> bodies;
  bodies.emplace_back(0.f);
  bodies.emplace_back(1.f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies) {
      Stepper &s = b;
      s.step(cc, 0.125f);
      std::printf("stepped: %.3f\n", b.sum());
    }
  });
  std::printf("after 1: %.3f %.3f\n", bodies[0].sum(), bodies[1].sum());
  acc.compute([&](ferry::ComputeContext &cc) {
    static_cast<Stepper &>(bodies[0]).step(cc, 1.f);
    bodies[0].nudge(100.f);
    static_cast<Stepper &>(bodies[0]).step(cc, 1.f);
    bodies[1].step(cc, 1.f);
  });
  std::printf("after 2: %.3f %.3f\n", bodies[0].sum(), bodies[1].sum());
  Body one(2.f);
  Stepper *p = &one;
  acc.compute([&](ferry::ComputeContext &cc) { p->step(cc, 0.5f); });
  std::printf("one: %.3f\n", one.sum());
}
