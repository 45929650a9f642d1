// Issue 33 (found by a second review of the cross-file summaries): two
// more ways a function of another Ferry source changes a buffer it is
// handed, which its summary must show:
//   1. a swap with its argument, `h1.swapBuf(g1.a)` (a member function)
//      and `swapBufs(h2.a, g2.a)` (a free one): a swap's second operand is
//      swapped too, so both parameters are read and written;
//   2. `attach(b)` keeps the address of `b`'s elements as an integer in a
//      static of other.cpp, and `poke()` writes there: a buffer parameter
//      not in the summary's `keeps_nothing` counts as escaped at the call,
//      and a file that turns a pointer into an integer lists `"*"` in
//      `pointer_places`.
// Keeping `g1.a`, `g2.a` or `b` across the change would run the next
// compute without it (the rewrite printed 2.0 for the 102.0s and 3.0 for
// the 203.0).
//
// By hand (every buffer 8 floats, 32 B): each section steps its buffer 3
// times; each compute copies it in (the first a fill for `g1.a` and
// `g2.a`, which start uniform; `b` was handed to `attach` by reference
// first) and brings it home, which the next host change needs.
// In 9 (288 B), 2 of them fills (64 B); out 9 (288 B); dispatches 9.
// ferry-test: golden
// ferry-test: to_device 9 to_device_bytes 288 fills 2 fill_bytes 64
// ferry-test: from_device 9 from_device_bytes 288
// ferry-test: dispatches 9
#include "other.h"

#include <cstdio>

FERRY_KERNEL void addOne(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(addOne, ferry::Range(a.size()), a);
}

int main() {
  ferry::Accelerator acc;

  Grid g1(8), h1(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
    h1.a[0] += 100.0f;
    h1.swapBuf(g1.a);
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
  std::printf("1: %.1f %.1f %.1f\n", g1.a[0], h1.a[0], g1.a[1]);

  Grid g2(8), h2(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
    h2.a[0] += 100.0f;
    swapBufs(h2.a, g2.a);
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
  std::printf("2: %.1f %.1f %.1f\n", g2.a[0], h2.a[0], g2.a[1]);

  ferry::Buffer<float> b(8, 0.0f);
  attach(b);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, b); });
    poke();
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, b); });
  std::printf("3: %.1f %.1f\n", b[0], b[1]);
  return 0;
}
