// Every work-item of a group writes its group's element: the group's items
// race with each other (`if (kc.localX == 0)` would make one of them write).
#include <ferry/ferry.hpp>

FERRY_KERNEL void firsts(ferry::KernelContext kc, const float *in,
                         float *out) {
  out[kc.groupX] = in[kc.groupX * kc.localSizeX];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(firsts, ferry::Range(in.size()).local(64), in, out);
}
// CHECK: 7:3: warning: data race: every work-item of a work-group writes the same element of 'out' in `out[kc.groupX] = in[kc.groupX * kc.localSizeX]`
