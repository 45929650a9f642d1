// A read-write kernel: `scale` reads and writes every element.
//
// By hand (32 ints = 128 B): one copy in before the dispatch (the device copy
// is stale at entry), one copy out at the exit.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 128 from_device 1 from_device_bytes 128
// ferry-test: dispatches 1
#include "Print.h"

FERRY_KERNEL void scale(ferry::KernelContext kc, int *values, int factor) {
  if (kc.x < kc.maxX)
    values[kc.x] = values[kc.x] * factor + 1;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values) {
  cc.dispatch(scale, ferry::Range(values.size()), values, 3);
}

int main() {
  ferry::Buffer<int> values(32);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int>(i);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values); });
  printBuffer("values", values);
}
