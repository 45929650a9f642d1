// Work-items read elements of local memory that other work-items of their
// group wrote, with no kc.barrier() between the write and the read.
#include <ferry/ferry.hpp>

FERRY_KERNEL void neighbours(ferry::KernelContext kc, const float *in,
                             float *out) {
  ferry::Local<float, 65> tile;
  tile[kc.localX] = in[kc.x];
  out[kc.x] = tile[kc.localX + 1] - tile[kc.localX];
}

FERRY_KERNEL void broadcast(ferry::KernelContext kc, const float *in,
                            float *out) {
  ferry::Local<float, 1> first;
  if (kc.localX == 0)
    first[0] = in[kc.x];
  out[kc.x] = in[kc.x] - first[0];
}

FERRY_KERNEL void fromFirst(ferry::KernelContext kc, const float *in,
                            float *out) {
  ferry::Local<float, 64> tile;
  tile[kc.localX] = in[kc.x];
  out[kc.x] = tile[0];
}

FERRY_KERNEL void guarded(ferry::KernelContext kc, const float *in, float *out,
                          int n) {
  ferry::Local<float, 65> tile;
  if (kc.x < n)
    tile[kc.localX] = in[kc.x];
  if (kc.x + 1 < n)
    out[kc.x] = tile[kc.localX + 1];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(neighbours, ferry::Range(in.size()).local(64), in, out);
  cc.dispatch(broadcast, ferry::Range(in.size()).local(64), in, out);
  cc.dispatch(fromFirst, ferry::Range(in.size()).local(64), in, out);
  cc.dispatch(guarded, ferry::Range(in.size()).local(64), in, out,
              (int)in.size());
}
// CHECK: 9:15: warning: data race: a work-item reads `tile[kc.localX + 1]`, an element of 'tile' another work-item of its group writes, with no kc.barrier() between
// CHECK-NOTE: 8:3: note: the other work-item's write: `tile[kc.localX] = in[kc.x]`
// CHECK: 17:26: warning: data race: a work-item reads `first[0]`
// CHECK-NOTE: 16:5: note: the other work-item's write: `first[0] = in[kc.x]`
// CHECK: 24:15: warning: data race: a work-item reads `tile[0]`
// CHECK: 33:17: warning: data race: a work-item reads `tile[kc.localX + 1]`
// CHECK-NOTE: 31:5: note: the other work-item's write: `tile[kc.localX] = in[kc.x]`
