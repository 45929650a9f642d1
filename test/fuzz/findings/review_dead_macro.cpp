// Review finding (issue 16): a use after the compute inside the same macro expansion (ExitLiveness).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

#define DOUBLE_AND_SHOW(acc, b)                                                \
  acc.compute([&](ferry::ComputeContext &cc) { dbl(cc, b); });                 \
  std::printf(#b " %g\n", b[1]);

int main() {
  ferry::Buffer<float> tmp{1.0f, 2.0f, 3.0f, 4.0f};
  ferry::Accelerator acc;
  DOUBLE_AND_SHOW(acc, tmp)
}
