// Kernels that use work-groups, dispatched without a work-group size.
#include <ferry/ferry.hpp>

FERRY_KERNEL void offsets(ferry::KernelContext kc, const float *in,
                          float *out) {
  out[kc.x] = in[kc.x] + kc.localX;
}

static float firstOfGroup(const ferry::KernelContext &kc, const float *in) {
  ferry::Local<float, 1> first;
  if (kc.localX == 0)
    first[0] = in[kc.x];
  kc.barrier();
  return first[0];
}

FERRY_KERNEL void shifted(ferry::KernelContext kc, const float *in,
                          float *out) {
  out[kc.x] = in[kc.x] - firstOfGroup(kc, in);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(offsets, ferry::Range(in.size()), in, out);
  cc.dispatch(shifted, ferry::Range(in.size()), in, out);
  cc.dispatch(offsets, ferry::Range(in.size()).local(32), in, out);
}
// CHECK: 24:24: error: kernel 'offsets' uses work-groups, so its dispatch must give the work-group size: write `ferry::Range(in.size()).local(...)`
// CHECK-NOTE: 6:26: note: 'offsets' uses kc.localX here
// CHECK: 25:24: error: kernel 'shifted' uses work-groups
// CHECK-NOTE: 10:26: note: 'shifted' calls 'firstOfGroup', which uses the ferry::Local 'first' here
