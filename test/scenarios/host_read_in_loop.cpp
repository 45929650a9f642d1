// The host reads one element after every dispatch: the copy out must sit
// inside the loop, the copy in stays hoisted before it.
//
// By hand (64 ints = 256 B, 6 steps): in once (device stale at entry; the
// host only reads, so the device copy stays valid); out once per step (the
// kernel made the host copy stale); nothing at the exit (the last read left
// the host copy valid).
// ferry-test: golden
// Fills: 1 of the copies in above (256 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 256 from_device 6 from_device_bytes 1536
// ferry-test: fills 1 fill_bytes 256
// ferry-test: dispatches 6
#include "Print.h"

FERRY_KERNEL void advance(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] = (values[kc.x] + kc.x + 1) % 97;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                       int steps) {
  long long trace = 0;
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(advance, ferry::Range(values.size()), values);
    trace = trace * 10 + values[0];
  }
  std::printf("trace: %lld\n", trace);
}

int main() {
  ferry::Buffer<int> values(64, 5);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values, 6); });
  printBuffer("values", values);
}
