// The tree reduction of docs/LANGUAGE.md, barriers in place.
#include <ferry/ferry.hpp>

FERRY_KERNEL void partialSums(ferry::KernelContext kc, const float *in,
                              float *out) {
  ferry::Local<float, 256> scratch;
  scratch[kc.localX] = in[kc.x];
  kc.barrier();
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      scratch[kc.localX] += scratch[kc.localX + step];
    kc.barrier();
  }
  if (kc.localX == 0)
    out[kc.groupX] = scratch[0];
}

// The same with the tile sized at dispatch and the barrier in a helper.
static void sync(const ferry::KernelContext &kc) { kc.barrier(); }

FERRY_KERNEL void partialMax(ferry::KernelContext kc, const float *in,
                             float *out, ferry::LocalSpan<float> scratch) {
  int lx = kc.localX;
  scratch[lx] = in[kc.x];
  sync(kc);
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (lx < step && scratch[lx + step] > scratch[lx])
      scratch[lx] = scratch[lx + step];
    sync(kc);
  }
  if (lx == 0)
    out[kc.groupX] = scratch[0];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &partial) {
  cc.dispatch(partialSums, ferry::Range(in.size()).local(256), in, partial);
  cc.dispatch(partialMax, ferry::Range(in.size()).local(128), in, partial,
              ferry::localSpan<float>(128));
}
