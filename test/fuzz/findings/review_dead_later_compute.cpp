// Review finding (issue 16): a lambda made earlier wraps a compute that reads the buffer later (ExitLiveness).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }
FERRY_KERNEL void copy(ferry::KernelContext kc, const float *in, float *out) { out[kc.x] = in[kc.x]; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}
FERRY_COMPUTE void cp(ferry::ComputeContext &cc, const ferry::Buffer<float> &in,
                      ferry::Buffer<float> &out) {
  cc.dispatch(copy, ferry::Range(in.size()), in, out);
}

int main() {
  ferry::Buffer<float> tmp{1.0f, 2.0f, 3.0f, 4.0f}, out(4);
  ferry::Accelerator acc;
  auto later = [&] { acc.compute([&](ferry::ComputeContext &cc) { cp(cc, tmp, out); }); };
  acc.compute([&](ferry::ComputeContext &cc) { dbl(cc, tmp); });
  later();
  std::printf("out %g\n", out[1]);
}
