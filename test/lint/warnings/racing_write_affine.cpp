// Two work-items write one element (issue 31, affine indices): in local
// memory, two stores of every item with no barrier between that overlap
// one item further on; in a buffer, a store whose index ignores a
// dimension of the dispatch's range.
#include <ferry/ferry.hpp>

FERRY_KERNEL void overlap(ferry::KernelContext kc, const float *in,
                          float *out) {
  ferry::Local<float, 65> s;
  s[kc.localX] = in[kc.x];
  s[kc.localX + 1] = 2.0f * in[kc.x];
  kc.barrier();
  out[kc.x] = s[kc.localX];
}

FERRY_KERNEL void rows(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.y * 64 + kc.x];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(overlap, ferry::Range(in.size()).local(64), in, out);
  cc.dispatch(rows, ferry::Range(64, 4), in, out);
}
// CHECK: 11:3: warning: data race: two work-items of a group write the same element of 's' in `s[kc.localX + 1] = 2.0f * in[kc.x]` and `s[kc.localX] = in[kc.x]`, with no kc.barrier() between
// CHECK-NOTE: 10:3: note: the other work-item's write: `s[kc.localX] = in[kc.x]`
// CHECK: 17:3: warning: data race: two work-items of the dispatch write the same element of 'out' in `out[kc.x] = in[kc.y * 64 + kc.x]` (its index, kc.x, maps two work-items of a 64 x 4 range onto one element)
