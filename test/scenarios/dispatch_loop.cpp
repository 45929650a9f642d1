// A loop of dispatches the host does not look at: one copy in on its first
// trip (guarded: `rounds` may be 0, loop_may_not_run), one copy out after
// it (HAT's first optimisation).
//
// By hand (args 128 5: 128 ints = 512 B, 5 rounds): `values` in once, out
// once; the read-only `weights` (128 ints) in once; nothing per iteration.
// ferry-test: golden
// ferry-test: args 128 5
// ferry-test: to_device 2 to_device_bytes 1024 from_device 1 from_device_bytes 512
// ferry-test: dispatches 5
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
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  ferry::Buffer<int> values(n), weights(n);
  for (int i = 0; i < n; ++i) {
    values[i] = i;
    weights[i] = 7 * i % 13;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values, weights, rounds); });
  printBuffer("values", values);
}
