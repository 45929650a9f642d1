// The store that races is in a helper the kernel hands the buffer to.
#include <ferry/ferry.hpp>

static void put(float *p, int i, float v) { p[i] = v; }

FERRY_KERNEL void largest(ferry::KernelContext kc, const float *in, float *out,
                          int n) {
  float m = in[0];
  for (int i = 1; i < n; ++i)
    m = in[i] > m ? in[i] : m;
  put(out, 0, m);
  put(out, kc.x, m); // its own element: no race
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(largest, ferry::Range(in.size()), in, out, (int)in.size());
}
// CHECK: 4:45: warning: data race: every work-item of the dispatch writes the same element of 'out' in `p[i] = v`
// CHECK-NOTE: 11:3: note: in 'put', called from kernel 'largest' here
