// The host writes one element before every dispatch. The write covers the
// element it writes, so nothing comes back before it; the kernel then needs
// that element on the device.
//
// By hand (16 ints = 64 B, 4 steps): step 0: the host copy is valid at entry,
// so the write needs nothing; the device copy is stale, all of it: in (1,
// 64 B; no fill, the host wrote the buffer first). Steps 1-3: values[s] is
// written with no copy back (the rest stays stale on the host), and only
// that element goes in (3 x 4 B). Exit: the kernel wrote all of it: out (1,
// 64 B). In 4 (76 B), out 1 (64 B); whole-buffer copies moved in 4 (256 B),
// out 4 (256 B). The first iteration differs from the rest, so the copy in
// is guarded: the runtime moves only the stale pieces.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 76 from_device 1 from_device_bytes 64
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
