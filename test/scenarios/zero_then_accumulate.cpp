// Issue 16, item 9 (PolyBench 2mm `tmp`, bicg `q`): each work-item zeroes its
// element and then adds into it. The element is defined before it is read,
// so the buffer needs no copy in.
//
// By hand (m: 8 x 8 ints = 256 B, sums: 8 ints = 32 B): m in (1); sums none.
// Exit: sums out (1); m was never written. In 1 (256 B), out 1 (32 B).
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 256 from_device 1 from_device_bytes 32
// ferry-test: dispatches 1
#include "Print.h"

FERRY_KERNEL void rowSums(ferry::KernelContext kc, const int *m, int *sums,
                          int n) {
  int i = kc.x;
  sums[i] = 0;
  for (int j = 0; j < n; ++j)
    sums[i] += m[i * n + j];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, const ferry::Buffer<int> &m,
                       ferry::Buffer<int> &sums, int n) {
  cc.dispatch(rowSums, ferry::Range(n), m, sums, n);
}

int main() {
  const int n = 8;
  ferry::Buffer<int> m(n * n), sums(n, 99);
  for (int i = 0; i < n * n; ++i)
    m[i] = i % 13;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, m, sums, n); });
  printBuffer("sums", sums);
}
