// Buffers given to functions whose bodies Ferry cannot see: by `const&` the
// buffer is read; by `&` it is read and may be written.
//
// By hand (16 ints = 64 B):
//   dispatch 1 reads `values`, stale on the device at entry: in (1).
//   inspect(const&) reads it, stale on the host: out (1).
//   mutate(&) reads (the host copy is valid) and may write: the device copy
//   becomes stale.
//   dispatch 2 reads it: in (2).
//   exit: stale on the host: out (2).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 128 from_device 2 from_device_bytes 128
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 2
#include "Print.h"

void inspect(const ferry::Buffer<int> &b);
void mutate(ferry::Buffer<int> &b);

FERRY_KERNEL void twice(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] *= 2;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values) {
  cc.dispatch(twice, ferry::Range(values.size()), values);
  inspect(values);
  mutate(values);
  cc.dispatch(twice, ferry::Range(values.size()), values);
}

int main() {
  ferry::Buffer<int> values(16, 3);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values); });
  printBuffer("values", values);
}
