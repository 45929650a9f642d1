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

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

FERRY_KERNEL void squareKernel(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] = values[kc.x] * values[kc.x];
}

FERRY_COMPUTE void square(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                          int rounds) {
  for (int round = 0; round < rounds; ++round)
    cc.dispatch(squareKernel, ferry::Range(values.size()), values);
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: squares [N] [ROUNDS]\n"
    "  N       elements, 1 to 16777216 (default 16)\n"
    "  ROUNDS  dispatches of the kernel, 0 to 1000000 (default 2)\n";

[[noreturn]] void usage(int status) {
  std::fputs(kUsage, status == 0 ? stdout : stderr);
  std::exit(status);
}

// argv[index] as a whole number from `low` to `high`; `fallback` if absent.
int intArgument(int argc, char **argv, int index, const char *name, int low,
                int high, int fallback) {
  if (index >= argc)
    return fallback;
  char *end = nullptr;
  errno = 0;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || errno != 0 || value < low ||
      value > high) {
    std::fprintf(stderr,
                 "squares: %s must be a whole number from %d to %d, not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 3) {
    std::fprintf(stderr, "squares: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "N", 1, 1 << 24, 16);
  const int rounds = intArgument(argc, argv, 2, "ROUNDS", 0, 1000000, 2);

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
