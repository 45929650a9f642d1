// What one small dispatch costs a Ferry program, for bench/kernels.sh to set
// beside bench/latency's raw OpenCL floors: ROUNDS dispatches of
// samples/squares' kernel over 1024 ints in one compute, host clock around
// the whole compute (its one copy in and one copy out included, a few
// microseconds), best of 3 after one untimed compute that builds the program.
// Run it without FERRY_STATS or FERRY_TRACE: they turn profiling on.
//
//   small_dispatches [ROUNDS]
//
// Prints dispatch_us=<best microseconds per dispatch> and the check sum.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <chrono>
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
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
  if (rounds <= 0) {
    std::fprintf(stderr, "usage: small_dispatches [ROUNDS]\n");
    return 1;
  }
  // 1 stays 1 however often it is squared, so every round does the same.
  ferry::Buffer<int> values(1024, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { square(cc, values, 1); });
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    acc.compute([&](ferry::ComputeContext &cc) { square(cc, values, rounds); });
    const double us = std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - t0)
                          .count();
    best = std::min(best, us / rounds);
  }
  long long sum = 0;
  for (int v : values)
    sum += v;
  std::printf("dispatch_us=%.2f\nsum=%lld\n", best, sum);
  return 0;
}
