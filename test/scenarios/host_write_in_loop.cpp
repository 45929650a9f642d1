// The host writes one element before every dispatch. A partial host write
// needs the host copy current first, and the kernel then needs it back.
//
// By hand (16 ints = 64 B, 4 steps): step 0: the host copy is valid at entry,
// so the write needs nothing; copy in (1). Steps 1-3: copy out before the
// write (the kernel made the host stale), copy in after it: 3 + 3. Exit: copy
// out (1). In 4, out 4. Where the first iteration differs from the rest the
// planner emits guarded copies; the runtime skips the one that is not needed.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 256 from_device 4 from_device_bytes 256
// ferry-test: dispatches 4
#include "Print.h"

FERRY_KERNEL void accumulate(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] = values[kc.x] * 2 + 1;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                       int steps) {
  for (int s = 0; s < steps; ++s) {
    values[s % values.size()] = 100 + s;
    cc.dispatch(accumulate, ferry::Range(values.size()), values);
  }
}

int main() {
  ferry::Buffer<int> values(16, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values, 4); });
  printBuffer("values", values);
}
