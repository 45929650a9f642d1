// Each work-item writes two elements of the tile, a group apart, and reads
// them back: its own elements, no other work-item's.
#include <ferry/ferry.hpp>

FERRY_KERNEL void pairs(ferry::KernelContext kc, const float *in, float *out) {
  ferry::Local<float, 128> tile;
  tile[kc.localX] = in[2 * kc.x];
  tile[kc.localX + 64] = in[2 * kc.x + 1];
  out[2 * kc.x] = tile[kc.localX];
  out[2 * kc.x + 1] = tile[kc.localX + 64];
}

FERRY_KERNEL void spans(ferry::KernelContext kc, const float *in, float *out,
                        ferry::LocalSpan<float> tile) {
  tile[kc.localX] = in[2 * kc.x];
  tile[kc.localX + kc.localSizeX] = in[2 * kc.x + 1];
  out[2 * kc.x] = tile[kc.localX] + tile[kc.localX + kc.localSizeX];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(pairs, ferry::Range(in.size() / 2).local(64), in, out);
  cc.dispatch(spans, ferry::Range(in.size() / 2).local(32), in, out,
              ferry::localSpan<float>(64));
}
