// Issue 10, bug 1: a whole host overwrite inside a loop that may run zero
// times, after a kernel wrote the buffer. Telling the runtime "the host copy
// is the newer one" before the loop would throw the kernel's results away
// when the loop does not run: the call sits at the overwrite itself.
//
// By hand (16 ints = 64 B; four computes): each dispatch overwrites `v` whole
// (no copy in). run(v, 0) and nested(v, 0): the loop does not run, so the
// kernel's results go back at exit (1 + 1). run(v, 2) and nested(v, 1): the
// host overwrites `v` whole (no copy); at exit the host copy is current.
// In 0, out 2 (128 B). (Main only reads `v` between computes, so each
// keeps it on the device; the kernels overwrite it whole anyway.)
// ferry-test: golden
// ferry-test: to_device 0 to_device_bytes 0 from_device 2 from_device_bytes 128
// ferry-test: dispatches 4
#include "Print.h"

#include <algorithm>
#include <numeric>

FERRY_KERNEL void fillIndex(ferry::KernelContext kc, int *v) {
  v[kc.x] = kc.x * 3;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &v,
                       int k) {
  cc.dispatch(fillIndex, ferry::Range(v.size()), v);
  for (int i = 0; i < k; ++i)
    std::fill(v.begin(), v.end(), i + 1);
}

FERRY_COMPUTE void nested(ferry::ComputeContext &cc, ferry::Buffer<int> &v,
                          int k) {
  cc.dispatch(fillIndex, ferry::Range(v.size()), v);
  for (;;) {
    for (int i = 0; i < k; ++i) {
      std::iota(v.begin(), v.end(), 100 + i);
    }
    break;
  }
}

int main() {
  ferry::Buffer<int> v(16, 7);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v, 0); });
  printBuffer("run 0", v);
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v, 2); });
  printBuffer("run 2", v);
  acc.compute([&](ferry::ComputeContext &cc) { nested(cc, v, 0); });
  printBuffer("nested 0", v);
  acc.compute([&](ferry::ComputeContext &cc) { nested(cc, v, 1); });
  printBuffer("nested 1", v);
}
