// histogram: three kernels in sequence sharing buffers, without atomics.
// `clearBins` zeroes one private histogram per group, `countGroups` lets each
// work-item count its own slice of the data into its own row (no two
// work-items touch the same bin), and `mergeGroups` sums the rows into the
// final bins. The per-group rows live in a scratch buffer created inside the
// compute function: it never crosses to the host.
//
//   histogram [N] [GROUPS]
//
// Transfers, by hand, for the default 4096 bytes of data and 8 groups of 16
// bins (ints):
//   clearBins: `partial` (8*16*4 = 512 B) is stored at partial[kc.x] over
//              the 128-item range: fully overwritten, no copy in.
//   countGroups: reads `data`, stale on the device: in (1, 4096 B);
//              reads and writes `partial`, already valid there: nothing.
//   mergeGroups: reads `partial` (valid on the device): nothing; `bins`
//              (16*4 = 64 B) is stored at bins[kc.x] over the 16-item range:
//              fully overwritten, no copy in.
//   exit: `bins` is stale on the host and the caller reads it: out (1, 64 B).
//         `partial` is stale on the host too, but it dies with the compute
//         function: nothing. `data` was never written: nothing.
// In 1 (4096 B), out 1 (64 B), 3 dispatches.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 4096 from_device 1 from_device_bytes 64
// ferry-test: dispatches 3
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int kBins = 16;

FERRY_KERNEL void clearBins(ferry::KernelContext kc, int *partial) {
  partial[kc.x] = 0;
}

// Work-item g counts data[g*chunk .. (g+1)*chunk) into row g of `partial`.
FERRY_KERNEL void countGroups(ferry::KernelContext kc, const unsigned char *data,
                              int *partial, int n, int chunk, int bins) {
  const int begin = kc.x * chunk;
  const int end = begin + chunk < n ? begin + chunk : n;
  for (int i = begin; i < end; ++i)
    partial[kc.x * bins + data[i] * bins / 256] += 1;
}

// Work-item b sums bin b over every group's row.
FERRY_KERNEL void mergeGroups(ferry::KernelContext kc, const int *partial,
                              int *bins, int groups) {
  int sum = 0;
  for (int g = 0; g < groups; ++g)
    sum += partial[g * kc.maxX + kc.x];
  bins[kc.x] = sum;
}

FERRY_COMPUTE void histogram(ferry::ComputeContext &cc,
                             ferry::Buffer<unsigned char> &data,
                             ferry::Buffer<int> &bins, int groups) {
  const int n = static_cast<int>(data.size());
  const int chunk = (n + groups - 1) / groups;
  ferry::Buffer<int> partial(groups * kBins);
  cc.dispatch(clearBins, ferry::Range(groups * kBins), partial);
  cc.dispatch(countGroups, ferry::Range(groups), data, partial, n, chunk, kBins);
  cc.dispatch(mergeGroups, ferry::Range(kBins), partial, bins, groups);
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: histogram [N] [GROUPS]\n"
    "  N       bytes of data, 1 to 67108864 (default 4096)\n"
    "  GROUPS  work-items counting, each into its own bins, 1 to 65536\n"
    "          (default 8)\n";

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
    std::fprintf(stderr, "histogram: %s must be a whole number from %d to %d, "
                         "not '%s'\n",
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
    std::fprintf(stderr, "histogram: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "N", 1, 1 << 26, 4096);
  const int groups = intArgument(argc, argv, 2, "GROUPS", 1, 65536, 8);

  // The sum of two pseudo-random bytes, halved: a triangle-shaped histogram.
  ferry::Buffer<unsigned char> data(n);
  unsigned state = 12345;
  for (int i = 0; i < n; ++i) {
    state = state * 1103515245u + 12345u;
    const unsigned first = (state >> 16) & 0xff;
    state = state * 1103515245u + 12345u;
    const unsigned second = (state >> 16) & 0xff;
    data[i] = static_cast<unsigned char>((first + second) / 2);
  }
  ferry::Buffer<int> bins(kBins);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { histogram(cc, data, bins, groups); });

  long long total = 0, weighted = 0;
  for (int b = 0; b < kBins; ++b) {
    std::printf("%d%s", bins[b], b + 1 == kBins ? "\n" : " ");
    total += bins[b];
    weighted += static_cast<long long>(b) * bins[b];
  }
  std::printf("check: n=%d groups=%d total=%lld weighted=%lld\n", n, groups,
              total, weighted);
  return 0;
}
