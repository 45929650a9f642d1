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

#include <cstdio>
#include <cstdlib>

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

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int groups = argc > 2 ? std::atoi(argv[2]) : 8;

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
