// Review finding (issue 16, second round): lambda_made_before; the rewritten program must
// print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>
FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }
FERRY_COMPUTE void f(ferry::ComputeContext &cc, ferry::Buffer<float> &s) {
  auto bump = [&s](int i) { s[i] += 1.0f; };
  cc.dispatch(twice, ferry::Range(s.size()), s);
  bump(0);
  cc.dispatch(twice, ferry::Range(s.size()), s);
}
int main() {
  ferry::Buffer<float> s(4, 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { f(cc, s); });
  std::printf("s %g %g\n", s[0], s[3]);
}
