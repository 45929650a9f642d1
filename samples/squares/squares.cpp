// squares: HAT's first example. Square every element of a buffer, a few
// rounds in a loop of dispatches, then print the result.
//
//   squares [N] [ROUNDS]
//
// Transfers, by hand, for the default 16 ints and 2 rounds: the kernel reads
// `values`, so one copy in (64 B) before the loop; the host reads it after
// compute returns, so one copy out (64 B) after the loop; nothing between the
// two dispatches, as the host does not look.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 64 from_device 1 from_device_bytes 64
// ferry-test: dispatches 2
#include <ferry/ferry.hpp>

#include <cstdio>
#include <cstdlib>

FERRY_KERNEL void squareKernel(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] = values[kc.x] * values[kc.x];
}

FERRY_COMPUTE void square(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                          int rounds) {
  for (int round = 0; round < rounds; ++round)
    cc.dispatch(squareKernel, ferry::Range(values.size()), values);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;

  ferry::Buffer<int> values(n);
  for (int i = 0; i < n; ++i)
    values[i] = i % 10;

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { square(cc, values, rounds); });

  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    if (i < 16) // the first few, then only the check line
      std::printf("%d%s", values[i], i + 1 == n ? "\n" : i == 15 ? " ...\n" : " ");
    sum += values[i];
  }
  std::printf("check: n=%d rounds=%d sum=%lld\n", n, rounds, sum);
  return 0;
}
