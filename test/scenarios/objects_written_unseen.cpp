// Issue 33 (found by a second review of the cross-file summaries, and wrong
// in one file too): host code between computes that changes a buffer
// member in ways the host events did not follow. Each section steps one
// buffer twice in a loop, changes it on the host after each compute, and
// steps it once more; keeping it on the device across the change would
// run the next compute without it (each line of the reference output
// differs from what the rewrite printed before):
//   1. a member function that reaches its buffer through an alias of
//      `this` (`Grid *self = this; self->a[0] += 100`): every buffer of the
//      object now counts as read, written and kept;
//   2. a const member function that casts const away (the same rule);
//   3. a member function that swaps its buffer with its argument
//      (`std::swap(b, a)`): a swap's second operand is swapped too;
//   4. a compound assignment the user wrote as a free function
//      (`g += h`): a call, like a member operator;
//   5. the compiler's move assignment of a struct holding a `Grid` whose
//      own move assignment swaps (`o2 = std::move(o1)`): each member of
//      both sides changes.
// (A constructor that moves a buffer in, `a = std::move(pool)`, is not
// taken to make it anew either: test/plan/SummaryTests.cpp.)
//
// By hand (every buffer 8 floats, 32 B): each section steps one buffer 3
// times (`g3.a` and `o2.g.a` hold the other buffer's contents after each
// swap); each compute copies it in, the first a fill (it starts uniform),
// the others after the host's change, and brings it home, which the next
// host change needs: 3 in (1 fill), 3 out per section. Section 4 writes
// `h4.a` on the host too, which no compute uses.
// In 15 (480 B), 5 of them fills (160 B); out 15 (480 B); dispatches 15.
// ferry-test: golden
// ferry-test: to_device 15 to_device_bytes 480 fills 5 fill_bytes 160
// ferry-test: from_device 15 from_device_bytes 480
// ferry-test: dispatches 15
#include <ferry/ferry.hpp>

#include <cstdio>
#include <utility>

FERRY_KERNEL void addOne(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(addOne, ferry::Range(a.size()), a);
}

struct Grid {
  explicit Grid(int n) : a(n, 0.0f) {}
  Grid(Grid &&o) : a(std::move(o.a)) {}
  Grid &operator=(Grid &&o) {
    std::swap(a, o.a);
    return *this;
  }
  void viaSelf() {
    Grid *self = this;
    self->a[0] += 100.0f;
  }
  void viaConst() const { const_cast<Grid *>(this)->a[0] += 100.0f; }
  void swapIn(ferry::Buffer<float> &b) { std::swap(b, a); }
  ferry::Buffer<float> a;
};

Grid &operator+=(Grid &dst, Grid &src) {
  dst.a[0] += 100.0f;
  src.a[0] += 1.0f;
  return dst;
}

struct Outer {
  Grid g;
};

int main() {
  ferry::Accelerator acc;

  Grid g1(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
    g1.viaSelf();
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
  std::printf("1: %.1f %.1f\n", g1.a[0], g1.a[1]);

  Grid g2(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
    g2.viaConst();
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
  std::printf("2: %.1f %.1f\n", g2.a[0], g2.a[1]);

  Grid g3(8), h3(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g3.a); });
    h3.a[0] += 100.0f;
    g3.swapIn(h3.a);
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g3.a); });
  std::printf("3: %.1f %.1f %.1f\n", g3.a[0], h3.a[0], g3.a[1]);

  Grid g4(8), h4(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g4.a); });
    g4 += h4;
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g4.a); });
  std::printf("4: %.1f %.1f %.1f\n", g4.a[0], h4.a[0], g4.a[1]);

  Outer o1{Grid(8)}, o2{Grid(8)};
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, o2.g.a); });
    o1.g.a[0] += 100.0f;
    o2 = std::move(o1);
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, o2.g.a); });
  std::printf("5: %.1f %.1f\n", o2.g.a[0], o1.g.a[0]);

  return 0;
}
