// A function that dispatches, called from a lambda inside compute code: the
// lambda is not planned, so Ferry rejects the call (review finding, issue 16).
#include <ferry/ferry.hpp>
#include <algorithm>
#include <cstdio>
FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }
FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}
int main() {
  ferry::Buffer<float> s(4, 1.0f);
  int idx[2] = {0, 1};
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    std::for_each(idx, idx + 2, [&](int i) { dbl(cc, s); s[i] += 1.0f; });
    dbl(cc, s);
  });
  std::printf("s %g %g %g\n", s[0], s[1], s[3]);
}
// CHECK: 15:46: error: 'dbl' dispatches kernels, and a lambda inside compute code calls it
