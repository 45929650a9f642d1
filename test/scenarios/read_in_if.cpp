// A host read inside an `if`: the copy out happens only on the paths that
// reach the read.
//
// By hand (64 ints = 256 B, 7 steps, read when step % 3 == 0): in (1) before
// the loop; out, of values[1] only, at steps 0, 3 and 6 (3 x 4 B); exit:
// elements 0 and 2..63 are still stale on the host: two pieces, 4 + 248 B
// (element 1 between them is valid on both sides and does not move again).
// Out 5 (3 x 4 + 252 = 264 B); whole-buffer copies out moved 3 (768 B).
// ferry-test: golden
// Fills: 1 of the copies in above (256 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 256 from_device 5 from_device_bytes 264
// ferry-test: fills 1 fill_bytes 256
// ferry-test: dispatches 7
#include "Print.h"

FERRY_KERNEL void bump(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] = (values[kc.x] * 5 + 3) % 101;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                       int steps) {
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(bump, ferry::Range(values.size()), values);
    if (s % 3 == 0)
      std::printf("step %d: %d\n", s, values[1]);
  }
}

int main() {
  ferry::Buffer<int> values(64, 4);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values, 7); });
  printBuffer("values", values);
}
