// Each work-item writes every element of out: all of them race. The same
// loop at an offset of the work-item's own (scale) does not.
#include <ferry/ferry.hpp>

FERRY_KERNEL void fill(ferry::KernelContext kc, const float *in, float *out,
                       int n) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i] * 2.0f;
}

FERRY_KERNEL void scale(ferry::KernelContext kc, const float *in, float *out,
                        int n) {
  for (int i = 0; i < n; ++i)
    out[kc.x * n + i] = in[kc.x * n + i] * 2.0f;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out, int n) {
  cc.dispatch(fill, ferry::Range(in.size()), in, out, n);
  cc.dispatch(scale, ferry::Range(in.size() / n), in, out, n);
}
// CHECK: 8:5: warning: data race: every work-item of the dispatch writes the same element of 'out' in `out[i] = in[i] * 2.0f`
