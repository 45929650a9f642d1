// One buffer passed as two parameters: run(cc, a, a). The planner cannot
// assume `x` and `y` are distinct, so its copies are guarded and act on the
// actual buffer: a buffer is never copied twice, nor missed.
//
// By hand (8 ints = 32 B):
//   compute 1, run(cc, a, a): in `a` once (1); dispatches 2; out once (1).
//   compute 2, run(cc, a, b): main only read `a` since compute 1 brought
//   it home, so Ferry keeps it on the device (`acc.keepOnDevice(a)`) and
//   the entry's guarded copy finds it valid; `b` was never on the device:
//   in `b` (1). Out `b` only (1): `a` was only read, its host copy is still
//   valid.
// In 2 (64 B), out 2 (64 B). (Without the keep, a new compute starts with
// every device copy stale: in 3.)
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 64 from_device 2 from_device_bytes 64
// ferry-test: dispatches 4
#include "Print.h"

FERRY_KERNEL void addInto(ferry::KernelContext kc, const int *x, int *y) {
  if (kc.x < kc.maxX)
    y[kc.x] = y[kc.x] + x[kc.x] + 1;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &x,
                       ferry::Buffer<int> &y) {
  cc.dispatch(addInto, ferry::Range(x.size()), x, y);
  cc.dispatch(addInto, ferry::Range(x.size()), x, y);
}

int main() {
  ferry::Buffer<int> a(8), b(8);
  for (int i = 0; i < 8; ++i) {
    a[i] = i;
    b[i] = 10 * i;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, a); });
  printBuffer("a after run(a, a)", a);
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b); });
  printBuffer("a", a);
  printBuffer("b", b);
}
