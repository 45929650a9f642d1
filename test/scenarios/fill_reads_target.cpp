// Fuzz finding F5: a whole overwrite whose value reads the buffer it
// overwrites. The arguments are evaluated before std::fill writes anything,
// so `a[n - 1]` needs the kernel's result on the host first; the overwrite
// itself then needs nothing more.
//
// By hand (8 ints = 32 B): the kernel overwrites a (no copy in). a[7] is
// read: a back (1). std::fill overwrites a: the host copy is current at exit.
// In 0, out 1 (32 B). The reference prints 34.
// ferry-test: golden
// ferry-test: to_device 0 to_device_bytes 0 from_device 1 from_device_bytes 32
// ferry-test: dispatches 1
#include "Print.h"

#include <algorithm>

FERRY_KERNEL void setAll(ferry::KernelContext kc, int *out) {
  out[kc.x] = kc.x + 10;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       int n) {
  cc.dispatch(setAll, ferry::Range(n), a);
  std::fill(a.begin(), a.end(), a[n - 1] * 2);
}

int main() {
  ferry::Buffer<int> a(8, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, 8); });
  printBuffer("a", a);
}
