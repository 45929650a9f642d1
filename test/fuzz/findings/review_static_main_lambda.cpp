// Review finding (issue 16, second round): static_main_lambda; the rewritten program must
// print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>
FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }
FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}
int main() {
  static ferry::Buffer<float> s(4, 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    dbl(cc, s);
    s[0] += 1.0f;
    dbl(cc, s);
  });
  std::printf("s %g %g\n", s[0], s[3]);
}
