// Issue 33 (found by a review of this stop's fix for virtual compute
// methods, `virtual_steps_of_objects`): two more ways to reach an override
// Ferry does not follow, each handed the ComputeContext.
//   - A virtual `operator()` called through a reference to the base
//     (`Op &o = d; o(cc, 3)`): only member-call syntax counted as a
//     virtual call, so the lambda was not planned and the overrides'
//     results never came home (the old tool printed `in 8` where the
//     reference prints `in 60`).
//   - A pointer to a virtual member (`(o.*pm)(cc, 2)`): the call was
//     planned as one Ferry cannot see, but with no guess of what it
//     touches, so the exit brought nothing home after an override that
//     direct calls elsewhere plan as leaving its buffer to the run-time
//     state. Such a call now reads and writes any buffer on the host
//     (`cc.hostWritesAllOf<>()`).
//   A call on a complete object (`D one; one.step(cc, 1)`) runs D's own
//   method: it is planned as a direct call, with no guess. Through a cast
//   to the base (`static_cast<Op &>(one).step(cc, 3)`, seed vx7: 2 of 120
//   programs) Clang knows D's override runs, but the call graph follows
//   Op's: it is a call Ferry cannot see into, as through a reference.
//
// By hand (a_: 8 ints, 32 B; each starts as made, so a first copy in is a
// fill):
//   compute 1: each `o(cc, 3)` copies its object in (2 fills, 64 B); the
//     read after it brings it home (2, 64 B).
//   compute 2: each `(o.*pm)` call counts as writing every buffer, so d0
//     goes in (32), then before d1's call d0 comes home (32) and d1 goes
//     in (32); `ds[0](cc, 1)` copies d0 in again (32); `ds[1].step` needs
//     nothing; the exit brings both home (64).
//   compute 3: one goes in as a fill (32) and comes home at the exit (32).
//   compute 4: the call through the cast counts as writing every int
//     buffer: one goes in (32) and comes home at the exit (32).
//   In 7 (224 B, 3 fills of 96 B); out 7 (224 B, all by the run-time
//   state: the members are private); dispatches 9.
// ferry-test: golden
// ferry-test: to_device 7 to_device_bytes 224 fills 3 fill_bytes 96
// ferry-test: from_device 7 from_device_bytes 224
// ferry-test: unnamed_from_device 7 unnamed_from_device_bytes 224
// ferry-test: dispatches 9
#include <ferry/ferry.hpp>

#include <cstdio>
#include <vector>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *a, int v) {
  a[kc.x] += v + kc.x;
}

struct Op {
  virtual ~Op() = default;
  FERRY_COMPUTE virtual void operator()(ferry::ComputeContext &cc, int v) = 0;
  FERRY_COMPUTE virtual void step(ferry::ComputeContext &cc, int v) = 0;
};

class D : public Op {
public:
  FERRY_COMPUTE void operator()(ferry::ComputeContext &cc, int v) override {
    cc.dispatch(inc, ferry::Range(a_.size()), a_, v);
  }
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, int v) override {
    cc.dispatch(inc, ferry::Range(a_.size()), a_, 10 * v);
  }
  int sum() const {
    int s = 0;
    for (int x : a_)
      s += x;
    return s;
  }

private:
  ferry::Buffer<int> a_ = ferry::Buffer<int>(8, 1);
};

int main() {
  std::vector<D> ds(2);
  void (Op::*pm)(ferry::ComputeContext &, int) = &Op::step;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (D &d : ds) {
      Op &o = d;
      o(cc, 3);
      std::printf("in %d\n", d.sum());
    }
  });
  std::printf("after 1: %d %d\n", ds[0].sum(), ds[1].sum());
  acc.compute([&](ferry::ComputeContext &cc) {
    for (D &d : ds) {
      Op &o = d;
      (o.*pm)(cc, 2);
    }
    ds[0](cc, 1);
    ds[1].step(cc, 1);
  });
  std::printf("after 2: %d %d\n", ds[0].sum(), ds[1].sum());
  D one;
  acc.compute([&](ferry::ComputeContext &cc) {
    one.step(cc, 1);
    one(cc, 2);
  });
  std::printf("one: %d\n", one.sum());
  acc.compute([&](ferry::ComputeContext &cc) {
    static_cast<Op &>(one).step(cc, 3);
  });
  std::printf("one: %d\n", one.sum());
}
