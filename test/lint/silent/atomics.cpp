// Shared elements updated with atomics, in a buffer and in local memory:
// no race. The value an atomic returns differs per work-item, so a store at
// the slot it hands out does not race either.
#include <ferry/ferry.hpp>

FERRY_KERNEL void histogram(ferry::KernelContext kc, const int *in, int *bins,
                            int *count, int *kept) {
  ferry::Local<int, 16> local;
  if (kc.localX < 16)
    local[kc.localX] = 0;
  kc.barrier();
  ferry::atomicAdd(&local[in[kc.x] % 16], 1);
  kc.barrier();
  if (kc.localX < 16)
    ferry::atomicAdd(&bins[kc.localX], local[kc.localX]);
  ferry::atomicAdd(&count[0], 1);
  ferry::atomicMax(&count[1], in[kc.x]);
  if (in[kc.x] > 8) {
    int slot = ferry::atomicAdd(&count[2], 1);
    kept[slot] = in[kc.x];
  }
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<int> &bins, ferry::Buffer<int> &count,
                       ferry::Buffer<int> &kept) {
  cc.dispatch(histogram, ferry::Range(in.size()).local(64), in, bins, count,
              kept);
}
