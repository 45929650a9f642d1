// A do/while loop that reads a one-element flag buffer each iteration while
// the large grids stay on the device (HAT's "flag" pattern).
//
// By hand (64 ints = 256 B per grid; the seed spreads one cell per
// iteration, so the flag says "changed" 63 times and "unchanged" once: 64
// iterations):
//   grid `a` in once before the loop (1); `b` is fully overwritten: no copy.
//   per iteration: the host resets the flag (its copy is valid: it was read
//   by the previous `while`), in (64 x 4 B); the kernel may set it; the
//   `while` reads it: out (64 x 4 B).
//   exit: both grids are stale on the host and the caller reaches both: out 2.
// In 65 (256 + 256 B), out 66 (256 + 512 B).
// ferry-test: golden
// ferry-test: to_device 65 to_device_bytes 512 from_device 66 from_device_bytes 768
// ferry-test: dispatches 64
#include "Print.h"

#include <utility>

FERRY_KERNEL void spreadMax(ferry::KernelContext kc, const int *from, int *to,
                            int *changed) {
  const int n = kc.maxX;
  int best = from[kc.x];
  if (kc.x > 0 && from[kc.x - 1] > best)
    best = from[kc.x - 1];
  if (kc.x + 1 < n && from[kc.x + 1] > best)
    best = from[kc.x + 1];
  to[kc.x] = best;
  if (best != from[kc.x])
    changed[0] = 1;
}

FERRY_COMPUTE void converge(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                            ferry::Buffer<int> &b, ferry::Buffer<int> &flag) {
  ferry::Buffer<int> *from = &a, *to = &b;
  int iterations = 0;
  do {
    flag[0] = 0;
    cc.dispatch(spreadMax, ferry::Range(a.size()), *from, *to, flag);
    std::swap(from, to);
    ++iterations;
  } while (flag[0] != 0);
  std::printf("iterations: %d\n", iterations);
}

int main() {
  ferry::Buffer<int> a(64), b(64), flag(1);
  a[0] = 42;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { converge(cc, a, b, flag); });
  printBuffer("a", a);
  printBuffer("b", b);
}
