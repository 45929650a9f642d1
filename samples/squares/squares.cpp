// squares: HAT's first example. Square every element of a buffer, a few
// rounds in a loop of dispatches, then print the result.
//
//   squares [N] [ROUNDS]
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
    std::printf("%d%c", values[i], i + 1 == n ? '\n' : ' ');
    sum += values[i];
  }
  std::printf("check: n=%d rounds=%d sum=%lld\n", n, rounds, sum);
  return 0;
}
