// A full overwrite whose value reads the buffer it overwrites, after a kernel
// wrote that buffer: the read needs the kernel's result on the host first.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <cstdio>

FERRY_KERNEL void setAll(ferry::KernelContext kc, int *out) {
  out[kc.x] = kc.x + 10;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a, int n) {
  cc.dispatch(setAll, ferry::Range(n), a);
  std::fill(a.begin(), a.end(), a[n - 1] * 2);
}

int main() {
  ferry::Buffer<int> a(8, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, 8); });
  std::printf("a[0] = %d (expected 34)\n", a[0]);
}
