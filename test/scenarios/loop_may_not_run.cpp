// A loop whose trip count is known only at run time gets no copy above it:
// run zero times, it must move nothing (the kernel policy moves nothing
// then either). The copy in is the first trip's, guarded, so a run of the
// loop still moves each buffer once; a loop with constant bounds that
// surely runs keeps its copy hoisted above it (nested_loops).
//
// By hand (args 64 0: 64 ints = 256 B, zero rounds): no kernel runs, the
// host copies stay the latest, nothing moves either way.
// ferry-test: golden
// ferry-test: args 64 0
// ferry-test: to_device 0 to_device_bytes 0 from_device 0 from_device_bytes 0
// ferry-test: dispatches 0
#include "Print.h"

#include <cstdlib>

FERRY_KERNEL void step(ferry::KernelContext kc, int *values, const int *weights) {
  if (kc.x < kc.maxX)
    values[kc.x] = (values[kc.x] * 3 + weights[kc.x]) % 1000;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                       const ferry::Buffer<int> &weights, int rounds) {
  for (int r = 0; r < rounds; ++r)
    cc.dispatch(step, ferry::Range(values.size()), values, weights);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 0;
  ferry::Buffer<int> values(n), weights(n);
  for (int i = 0; i < n; ++i) {
    values[i] = i;
    weights[i] = 7 * i % 13;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values, weights, rounds); });
  printBuffer("values", values);
}
