// histogram_atomic: samples/histogram in one kernel, with atomics. Each
// work-group counts its share of the data into a histogram of its own in
// local memory (atomicAdd on a ferry::Local: the work-items of a group hit
// the same bins), then adds its bins into the global histogram (atomicAdd on
// the buffer: the groups hit the same bins). The data and the 16 bins are
// those of samples/histogram, so both print the same bins for the same N.
//
//   histogram_atomic [N] [GROUPS]     GROUPS work-groups of 64 work-items
//
// Transfers, by hand, for the default 4096 bytes of data and 8 groups:
//   countBins: reads `data`, stale on the device: in (1, 4096 B).
//     `bins` (16*4 = 64 B) is touched by an atomic, so it is read and
//     written: it must be in on the device, and it still holds what it was
//     made with (zeros), so that copy in is a fill: in (1, 64 B), 1 fill.
//   exit: `bins` is stale on the host and main reads it: out (1, 64 B).
// In 2 (4160 B, 64 of them a fill), out 1 (64 B), 1 dispatch.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 4160 from_device 1 from_device_bytes 64
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 1
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int kBins = 16;
constexpr int kGroupSize = 64;

// Range(groups * kGroupSize).local(kGroupSize).
FERRY_KERNEL void countBins(ferry::KernelContext kc,
                            FERRY_RO const unsigned char *data, int n,
                            unsigned *bins) {
  ferry::Local<unsigned, kBins> counts;
  for (int b = kc.localX; b < kBins; b += kc.localSizeX)
    counts[b] = 0;
  kc.barrier();
  for (int i = kc.x; i < n; i += kc.maxX)
    ferry::atomicAdd(&counts[data[i] * kBins / 256], 1u);
  kc.barrier();
  for (int b = kc.localX; b < kBins; b += kc.localSizeX)
    ferry::atomicAdd(&bins[b], counts[b]);
}

FERRY_COMPUTE void histogram(ferry::ComputeContext &cc,
                             ferry::Buffer<unsigned char> &data,
                             ferry::Buffer<unsigned> &bins, int groups) {
  const int n = static_cast<int>(data.size());
  cc.dispatch(countBins, ferry::Range(groups * kGroupSize).local(kGroupSize),
              data, n, bins);
}

namespace {

// The command line, checked: a size out of range would otherwise make an
// impossible buffer or overflow an index.
const char kUsage[] =
    "usage: histogram_atomic [N] [GROUPS]\n"
    "  N       bytes of data, 1 to 16777216 (default 4096)\n"
    "  GROUPS  work-groups, 1 to 65536 (default 8)\n";

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
                 "histogram_atomic: %s must be a whole number from %d to %d, not '%s'\n",
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
  if (argc > 3) {
    std::fprintf(stderr, "histogram_atomic: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "N", 1, 16777216, 4096);
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
  ferry::Buffer<unsigned> bins(kBins);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { histogram(cc, data, bins, groups); });

  // The same bins counted here, one byte after another.
  unsigned expected[kBins] = {};
  for (int i = 0; i < n; ++i)
    ++expected[data[i] * kBins / 256];
  long long total = 0, weighted = 0, wrong = 0;
  for (int b = 0; b < kBins; ++b) {
    std::printf("%u%s", bins[b], b + 1 == kBins ? "\n" : " ");
    total += bins[b];
    weighted += static_cast<long long>(b) * bins[b];
    wrong += bins[b] != expected[b];
  }
  std::printf("check: n=%d groups=%d total=%lld weighted=%lld wrong bins=%lld\n",
              n, groups, total, weighted, wrong);
  return wrong == 0 ? 0 : 2;
}
