// A helper Ferry can see takes the buffer by `&` but only reads it: its
// summary says so, so the device copy stays valid across the call.
//
// By hand (16 ints = 64 B): in (1) before dispatch 1; out (1) for total();
// dispatch 2 needs nothing (total() did not write); exit: out (2).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 64 from_device 2 from_device_bytes 128
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 2
#include "Print.h"

FERRY_KERNEL void addIndex(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] += kc.x;
}

static long long total(ferry::Buffer<int> &b) {
  long long sum = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum += b[i];
  return sum;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values) {
  cc.dispatch(addIndex, ferry::Range(values.size()), values);
  std::printf("total after 1: %lld\n", total(values));
  cc.dispatch(addIndex, ferry::Range(values.size()), values);
}

int main() {
  ferry::Buffer<int> values(16, 2);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values); });
  printBuffer("values", values);
}
