// The tree reduction of docs/LANGUAGE.md without the barrier at the end of
// the loop body: the next step reads partial sums other work-items may not
// have written yet (through the loop's back-edge).
#include <ferry/ferry.hpp>

FERRY_KERNEL void partialSums(ferry::KernelContext kc, const float *in,
                              float *out) {
  ferry::Local<float, 256> scratch;
  scratch[kc.localX] = in[kc.x];
  kc.barrier();
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      scratch[kc.localX] += scratch[kc.localX + step];
  }
  kc.barrier();
  if (kc.localX == 0)
    out[kc.groupX] = scratch[0];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &partial) {
  cc.dispatch(partialSums, ferry::Range(in.size()).local(256), in, partial);
}
// CHECK: 13:29: warning: data race: a work-item reads `scratch[kc.localX + step]`
// CHECK-NOTE: 13:7: note: the other work-item's write: `scratch[kc.localX] += scratch[kc.localX + step]`
