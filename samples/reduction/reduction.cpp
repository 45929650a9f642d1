// reduction: the sum and the maximum of N ints through local memory, in two
// dispatches of work-groups of 256.
//
// `reduceGroups`: each work-item first folds every (global size)-th element
// into a private sum and maximum, four loads in flight at a time (a
// grid-stride loop: the work-items of a step read consecutive elements), then
// its group folds those 256 pairs in a tree in local memory, and one
// work-item writes the group's pair. `reducePartials`: one group folds the
// groups' pairs the same way. Both trees are one helper, `foldGroup`, handed
// the local arrays as pointers.
//
// On the H100 (docs/kernels.md), `reduceGroups` reads 64 MiB in about
// 26.4 us with 1056 groups (8 per SM); `reducePartials` takes about 4 us
// however few pairs it folds (3.9 us for 64): that is what a dispatch costs
// there, and more work-items per group or more loads in flight change
// neither.
//
// Integer sums and maxima are exact in any order, so the device and the
// reference agree bit for bit. The values are below 100, so the sum of up
// to 2^24 elements fits an int.
//
//   reduction [N] [GROUPS] [REPS]    GROUPS work-groups in the first
//                                    dispatch (default 64); the whole
//                                    reduction runs REPS times
//                                    (bench/kernels.sh times them)
//
// Transfers, by hand, for the default N = 1048576 (ints), 64 groups, REPS 1:
//   reduceGroups: reads `data`, stale on the device: in (1, 4194304 B).
//     `partialSums` and `partialMaxima` (64*4 B each) are made inside the
//     compute function and FERRY_WO: no copy in, and they never go back.
//   reducePartials: reads the partials (valid on the device): nothing.
//     `total` and `maximum` (one int each) are FERRY_WO: no copy in.
//   exit: `total` and `maximum` are stale on the host and main reads them:
//   out (2, 8 B). `data` was never written on the device: nothing.
//   REPS repeats only the two dispatches.
// In 1 (4194304 B), out 2 (8 B), 2 dispatches.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 4194304 from_device 2 from_device_bytes 8
// ferry-test: dispatches 2
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int kGroupSize = 256;
constexpr int kLowest = -2147483647 - 1; // the maximum of nothing

int larger(int a, int b) { return a > b ? a : b; }

// Folds the group's kGroupSize (sum, maximum) pairs, one per work-item, into
// sums[0] and maxima[0], halving the active work-items at each step.
void foldGroup(ferry::KernelContext kc, int *sums, int *maxima) {
  for (int step = kGroupSize / 2; step > 0; step /= 2) {
    if (kc.localX < step) {
      const int other = kc.localX + step;
      sums[kc.localX] += sums[other];
      maxima[kc.localX] = larger(maxima[kc.localX], maxima[other]);
    }
    kc.barrier();
  }
}

// Range(groups * kGroupSize).local(kGroupSize): group g writes pair g.
FERRY_KERNEL void reduceGroups(ferry::KernelContext kc, FERRY_RO const int *in,
                               int n, FERRY_WO int *partialSums,
                               FERRY_WO int *partialMaxima) {
  ferry::Local<int, kGroupSize> sums;
  ferry::Local<int, kGroupSize> maxima;
  const int stride = kc.maxX;
  int sum = 0;
  int best = kLowest;
  int i = kc.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    const int v0 = in[i];
    const int v1 = in[i + stride];
    const int v2 = in[i + 2 * stride];
    const int v3 = in[i + 3 * stride];
    sum += (v0 + v1) + (v2 + v3);
    best = larger(best, larger(larger(v0, v1), larger(v2, v3)));
  }
  for (; i < n; i += stride) {
    sum += in[i];
    best = larger(best, in[i]);
  }
  sums[kc.localX] = sum;
  maxima[kc.localX] = best;
  kc.barrier();
  foldGroup(kc, &sums[0], &maxima[0]);
  if (kc.localX == 0) {
    partialSums[kc.groupX] = sums[0];
    partialMaxima[kc.groupX] = maxima[0];
  }
}

// Range(kGroupSize).local(kGroupSize): one group folds the `count` pairs.
FERRY_KERNEL void reducePartials(ferry::KernelContext kc,
                                 FERRY_RO const int *partialSums,
                                 FERRY_RO const int *partialMaxima, int count,
                                 FERRY_WO int *total, FERRY_WO int *maximum) {
  ferry::Local<int, kGroupSize> sums;
  ferry::Local<int, kGroupSize> maxima;
  int sum = 0;
  int best = kLowest;
  for (int i = kc.localX; i < count; i += kGroupSize) {
    sum += partialSums[i];
    best = larger(best, partialMaxima[i]);
  }
  sums[kc.localX] = sum;
  maxima[kc.localX] = best;
  kc.barrier();
  foldGroup(kc, &sums[0], &maxima[0]);
  if (kc.localX == 0) {
    total[0] = sums[0];
    maximum[0] = maxima[0];
  }
}

FERRY_COMPUTE void reduce(ferry::ComputeContext &cc, ferry::Buffer<int> &data,
                          ferry::Buffer<int> &total, ferry::Buffer<int> &maximum,
                          int groups, int reps) {
  const int n = static_cast<int>(data.size());
  ferry::Buffer<int> partialSums(groups), partialMaxima(groups);
  for (int rep = 0; rep < reps; ++rep) {
    cc.dispatch(reduceGroups,
                ferry::Range(groups * kGroupSize).local(kGroupSize), data, n,
                partialSums, partialMaxima);
    cc.dispatch(reducePartials, ferry::Range(kGroupSize).local(kGroupSize),
                partialSums, partialMaxima, groups, total, maximum);
  }
}

namespace {

// The command line, checked: a size out of range would otherwise make an
// impossible buffer or overflow an index.
const char kUsage[] =
    "usage: reduction [N] [GROUPS] [REPS]\n"
    "  N       elements, 1 to 16777216 (default 1048576)\n"
    "  GROUPS  work-groups of 256, 1 to 65536 (default 64)\n"
    "  REPS    times to reduce, 1 to 1000 (default 1)\n";

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
                 "reduction: %s must be a whole number from %d to %d, not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 4) {
    std::fprintf(stderr, "reduction: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "N", 1, 16777216, 1 << 20);
  const int groups = intArgument(argc, argv, 2, "GROUPS", 1, 65536, 64);
  const int reps = intArgument(argc, argv, 3, "REPS", 1, 1000, 1);

  // Pseudo-random values in [0, 100), and one 100 + n % 1000 placed where
  // no single work-item's first loads would find it.
  ferry::Buffer<int> data(n);
  unsigned state = 2024;
  for (int i = 0; i < n; ++i) {
    state = state * 1103515245u + 12345u;
    data[i] = static_cast<int>((state >> 16) % 100);
  }
  data[n - 1 - n / 3] = 100 + n % 1000;
  ferry::Buffer<int> total(1), maximum(1);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    reduce(cc, data, total, maximum, groups, reps);
  });

  long long sum = 0;
  int best = data[0];
  for (int i = 0; i < n; ++i) {
    sum += data[i];
    best = data[i] > best ? data[i] : best;
  }
  std::printf("sum=%d max=%d\n", total[0], maximum[0]);
  std::printf("check: n=%d groups=%d reps=%d sum %s max %s\n", n, groups, reps,
              total[0] == sum ? "ok" : "WRONG", maximum[0] == best ? "ok" : "WRONG");
  return total[0] == sum && maximum[0] == best ? 0 : 2;
}
