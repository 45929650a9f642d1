// A loop that surely starts (constant bounds, or a do-while) whose trip may
// still leave before its kernel runs: a `break` or a `return` decided by the
// data. A copy hoisted above such a loop would move data on a run that uses
// none of it; the copy stays at the dispatch, guarded, and moves the data on
// the first trip that reaches it, or never. Found by the differential
// generator (seed session27 p304, seed review27b p51: each moved more than
// copying around every dispatch).
//
// By hand (args 64 1: 64 ints = 256 B per buffer; every value is odd, so
// `settle` breaks and `polish` returns before their first dispatch): no
// kernel runs and nothing moves, as under the kernel policy. Before the fix
// both hoisted `values` and `weights` in, guarded: `settle` copied both
// (2 copies, 512 B) for a run that dispatches nothing.
// ferry-test: golden
// ferry-test: args 64 1
// ferry-test: to_device 0 to_device_bytes 0 from_device 0 from_device_bytes 0
// ferry-test: dispatches 0
#include "Print.h"

#include <cstdlib>

FERRY_KERNEL void step(ferry::KernelContext kc, int *values, const int *weights) {
  if (kc.x < kc.maxX)
    values[kc.x] = (values[kc.x] * 3 + weights[kc.x]) % 1000;
}

FERRY_COMPUTE void settle(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                          const ferry::Buffer<int> &weights) {
  for (int r = 0; r < 4; ++r) {
    if (values[0] % 2 == 1)
      break;
    cc.dispatch(step, ferry::Range(values.size()), values, weights);
  }
}

FERRY_COMPUTE void polish(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                          const ferry::Buffer<int> &weights) {
  int r = 0;
  do {
    if (values[1] % 2 == 1)
      return;
    cc.dispatch(step, ferry::Range(values.size()), values, weights);
  } while (++r < 3);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  const int start = argc > 2 ? std::atoi(argv[2]) : 0;
  ferry::Buffer<int> values(n), weights(n);
  for (int i = 0; i < n; ++i) {
    values[i] = start + 2 * i;
    weights[i] = 7 * i % 13;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    settle(cc, values, weights);
    polish(cc, values, weights);
  });
  printBuffer("values", values);
}
