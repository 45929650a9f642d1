// Every work-item stores the sum at out[0]: a data race.
#include <ferry/ferry.hpp>

FERRY_KERNEL void total(ferry::KernelContext kc, const float *in, float *out,
                        int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i];
  out[0] = s;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(total, ferry::Range(in.size()), in, out, (int)in.size());
}
// CHECK: 9:3: warning: data race: every work-item of the dispatch writes the same element of 'out' in `out[0] = s`
