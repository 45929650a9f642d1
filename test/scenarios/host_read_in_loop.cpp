// The host reads one element after every dispatch: the copy out of that
// element must sit inside the loop, the copy in stays hoisted before it.
//
// By hand (64 ints = 256 B, 6 steps): in once (device stale at entry; the
// host only reads, so the device copy stays valid); out once per step, of
// values[0] only (4 B: the kernel made the host copy stale, the read
// touches one element); at the exit the rest, values[1..63], one piece of
// 252 B (the guarded copy moves only what is still stale). The read is not
// widened to the whole buffer: after it comes the next dispatch on every
// trip but the last, which the plan cannot tell apart.
// Out 7 (6 x 4 + 252 = 276 B); whole-buffer copies out moved 6 (1536 B).
// ferry-test: golden
// Fills: 1 of the copies in above (256 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 256 from_device 7 from_device_bytes 276
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
