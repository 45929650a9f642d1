// Review finding (issue 16, second round): static_local_compute_fn; the rewritten program must
// print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>
FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }
FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}
static void outer(ferry::Accelerator &acc) {
  static ferry::Buffer<float> s(4, 1.0f);
  ferry::Buffer<float> &r = s;
  acc.compute([&](ferry::ComputeContext &cc) {
    dbl(cc, r);
    r[0] += 1.0f;
    dbl(cc, r);
  });
  std::printf("s %g %g\n", s[0], s[3]);
}
int main() {
  ferry::Accelerator acc;
  outer(acc);
  outer(acc);
}
