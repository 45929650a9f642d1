// Issue 33 (found by the generator's new `objfunction` form, seed vx4,
// 1 of 150 programs): a std::function made in main from a lambda that
// captures a vector of objects by reference (`[&](int v) {
// bodies[0].bump(v); }`), called on the host between two steps inside a
// compute. A call whose target only the run knows touches what the
// enclosing function's lambdas capture by reference, but an object was
// followed through its class's buffer paths, and a std::vector has none:
// the call touched nothing, and the second step's guarded copy in skipped
// the host write (the old tool printed `4 4` where the reference prints
// `4 34`). A captured container of objects now stands for every buffer of
// the type its elements hold (`cc.hostWritesAllOf<int>()`).
//
// By hand (a_: 16 ints, 64 B; each starts as made, so a first copy in is a
// fill): b0's first step copies it in (a fill); before the call, b0 comes
// home (64) and every int buffer counts as written; b0's second step copies
// it in again (64). b1's first step copies it in (a fill); before the
// call, b0 and b1 come home (128); b1's second step copies it in (64); the
// exit brings it home (64). In 4 (256 B, 2 fills of 128 B); out 4 (256 B,
// all by the run-time state); dispatches 4.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 256 fills 2 fill_bytes 128
// ferry-test: from_device 4 from_device_bytes 256
// ferry-test: unnamed_from_device 4 unnamed_from_device_bytes 256
// ferry-test: dispatches 4
#include <ferry/ferry.hpp>

#include <cstdio>
#include <functional>
#include <vector>

FERRY_KERNEL void twice(ferry::KernelContext kc, int *a) { a[kc.x] *= 2; }

class Body {
public:
  explicit Body(int s) : a_(16, s) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(twice, ferry::Range(a_.size()), a_);
  }
  void bump(int v) { a_[1] += v; }
  int at(int i) const { return a_[i]; }

private:
  ferry::Buffer<int> a_;
};

int main() {
  std::vector<Body> bodies;
  bodies.emplace_back(1);
  bodies.emplace_back(3);
  std::function<void(int)> bump = [&](int v) { bodies[0].bump(v); };
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies) {
      b.step(cc);
      bump(10);
      b.step(cc);
    }
  });
  std::printf("%d %d %d %d\n", bodies[0].at(0), bodies[0].at(1),
              bodies[1].at(0), bodies[1].at(1));
}
