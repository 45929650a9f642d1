// sgemm: C = A x B for square row-major n x n floats, register-tiled, beside
// the plain one-work-item-per-element `matmul`. Each work-group of 16 x 16
// work-items computes a 128 x 128 block of C; each work-item an 8 x 8 block
// of it, held in a private array. The group walks k in slices of 8: it
// stages a 128 x 8 slice of A and an 8 x 128 slice of B in local memory
// (every element of them loaded from global memory once per group, by
// consecutive work-items at consecutive addresses), waits at a barrier, and
// each work-item then does 8 x 8 multiply-adds per 16 values it reads from
// local memory. That reuse is what makes it fast: the plain kernel reads two
// global values per multiply-add. While a slice is multiplied, the next one
// is already being loaded into registers (4 + 4 values per work-item), so
// the wait for global memory overlaps the arithmetic.
//
// The shape is the one measured fastest on the H100, written by hand in
// bench/raw_sgemm (whose arguments pick the shape) at n = 4096 and 8192:
// 128 x 128 / 8 x 8 / slices of 8 with the prefetch took 4.16 and 32.3 ms,
// the same without it 4.98 and 39.5, 64 x 64 / 4 x 4 / 16 5.37 and 41.6.
// This kernel, through Ferry, takes what the hand-written one takes:
// docs/kernels.md sets both beside CLBlast.
//
// A work-item's outputs are strided (rows ty, ty+16, ..., columns tx,
// tx+16, ...): the 16 work-items of a row then read 16 consecutive words of
// the B slice (no two in one bank) and store consecutive words of C. The A
// slice is stored transposed, its rows padded to 132 words, so that the
// transposing stores of a warp (8 values of k for each of four rows) fall
// in 32 different banks.
//
// The entries are small integers held in floats (|a| <= 5, |b| <= 4), so
// every partial sum is an integer below 2^24 for n <= 16384: exact in any
// order, so the device and the reference agree bit for bit.
//
//   sgemm [N] [REPS]       N a positive multiple of 128; the product is
//                          computed REPS times (bench/kernels.sh times them)
//
// Transfers, by hand, for the default N = 256, REPS = 1 (floats):
//   `a` and `b` (256*256*4 = 262144 B each) are read by the kernel and
//   stale on the device: in (2, 524288 B).
//   `c` (262144 B) is FERRY_WO: the blocks of the 2 x 2 groups tile it, and
//   the kernel stores all of its elements, so no copy in.
//   exit: `c` is stale on the host and main reads it: out (1, 262144 B).
//   REPS dispatches change nothing above: `a` and `b` stay valid on the
//   device, `c` is read only after compute.
// In 2 (524288 B), out 1 (262144 B), 1 dispatch.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 524288 from_device 1 from_device_bytes 262144
// ferry-test: dispatches 1
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int kBlock = 128;           // a group's block of C: kBlock^2
constexpr int kItems = 16;            // work-items per group side
constexpr int kPer = kBlock / kItems; // a work-item's outputs per side
constexpr int kSlice = 8;             // k values staged per step
constexpr int kThreads = kItems * kItems;
constexpr int kLoads = kBlock * kSlice / kThreads; // per work-item, per slice
constexpr int kPitchA = kBlock + 32 / kSlice; // the transposed A slice's pitch

// Range(n / kPer, n / kPer).local(kItems, kItems): groupX is the block's
// column of blocks, groupY its row.
FERRY_KERNEL void sgemmTiled(ferry::KernelContext kc, FERRY_RO const float *a,
                             FERRY_RO const float *b, FERRY_WO float *c,
                             int n) {
  ferry::Local<float, kSlice * kPitchA> aSlice; // aSlice[k * kPitchA + row]
  ferry::Local<float, kSlice * kBlock> bSlice;  // bSlice[k * kBlock + col]
  const int tx = kc.localX;
  const int ty = kc.localY;
  const int self = ty * kItems + tx;
  const int rowBase = kc.groupY * kBlock;
  const int colBase = kc.groupX * kBlock;

  float acc[kPer][kPer];
  for (int i = 0; i < kPer; ++i)
    for (int j = 0; j < kPer; ++j)
      acc[i][j] = 0.0f;

  // Work-item `self` loads elements self, self + kThreads, ... of each
  // slice: of A's (row-major, kSlice wide) and of B's (kBlock wide).
  float aNext[kLoads];
  float bNext[kLoads];
  for (int l = 0; l < kLoads; ++l) {
    const int e = self + l * kThreads;
    aNext[l] = a[(rowBase + e / kSlice) * n + e % kSlice];
    bNext[l] = b[(e / kBlock) * n + colBase + e % kBlock];
  }

  for (int k0 = 0; k0 < n; k0 += kSlice) {
    for (int l = 0; l < kLoads; ++l) {
      const int e = self + l * kThreads;
      aSlice[(e % kSlice) * kPitchA + e / kSlice] = aNext[l];
      bSlice[(e / kBlock) * kBlock + e % kBlock] = bNext[l];
    }
    kc.barrier();
    // The next slice's loads are in flight while this one is multiplied.
    if (k0 + kSlice < n) {
      for (int l = 0; l < kLoads; ++l) {
        const int e = self + l * kThreads;
        aNext[l] = a[(rowBase + e / kSlice) * n + k0 + kSlice + e % kSlice];
        bNext[l] = b[(k0 + kSlice + e / kBlock) * n + colBase + e % kBlock];
      }
    }
    for (int k = 0; k < kSlice; ++k) {
      float aReg[kPer];
      float bReg[kPer];
      for (int i = 0; i < kPer; ++i)
        aReg[i] = aSlice[k * kPitchA + ty + i * kItems];
      for (int j = 0; j < kPer; ++j)
        bReg[j] = bSlice[k * kBlock + tx + j * kItems];
      for (int i = 0; i < kPer; ++i)
        for (int j = 0; j < kPer; ++j)
          acc[i][j] += aReg[i] * bReg[j];
    }
    // The next slice overwrites what the others may still be reading.
    kc.barrier();
  }

  for (int i = 0; i < kPer; ++i)
    for (int j = 0; j < kPer; ++j)
      c[(rowBase + ty + i * kItems) * n + colBase + tx + j * kItems] = acc[i][j];
}

FERRY_COMPUTE void sgemm(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                         ferry::Buffer<float> &b, ferry::Buffer<float> &c,
                         int n, int reps) {
  for (int rep = 0; rep < reps; ++rep)
    cc.dispatch(sgemmTiled, ferry::Range(n / kPer, n / kPer).local(kItems, kItems),
                a, b, c, n);
}

namespace {

// The command line, checked: a size out of range would otherwise make an
// impossible buffer or overflow an index.
const char kUsage[] =
    "usage: sgemm [N] [REPS]\n"
    "  N     rows and columns, a multiple of 128 up to 16384 (default 256)\n"
    "  REPS  times to compute the product, 1 to 1000 (default 1)\n";

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
                 "sgemm: %s must be a whole number from %d to %d, not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

float entryA(long long i) { return static_cast<float>((i * 7 + 3) % 11 - 5); }
float entryB(long long i) { return static_cast<float>((i * 5 + 1) % 9 - 4); }

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 3) {
    std::fprintf(stderr, "sgemm: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "N", 128, 16384, 256);
  const int reps = intArgument(argc, argv, 2, "REPS", 1, 1000, 1);
  if (n % kBlock != 0) {
    std::fprintf(stderr, "sgemm: N must be a multiple of %d, not %d\n", kBlock,
                 n);
    usage(1);
  }

  const long long nn = static_cast<long long>(n) * n;
  ferry::Buffer<float> a(nn), b(nn), c(nn);
  for (long long i = 0; i < nn; ++i) {
    a[i] = entryA(i);
    b[i] = entryB(i);
  }

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { sgemm(cc, a, b, c, n, reps); });

  // A weighted sum of all of C, with separable weights u_i v_j, equals
  // sum_k (sum_i u_i a_ik)(sum_j b_kj v_j): checked in O(n^2), exactly.
  auto u = [](long long i) { return i % 5 + 1; };
  auto v = [](long long j) { return j % 3 + 1; };
  long long weighted = 0;
  for (long long i = 0; i < n; ++i)
    for (long long j = 0; j < n; ++j)
      weighted += u(i) * v(j) * static_cast<long long>(c[i * n + j]);
  long long expected = 0;
  for (long long k = 0; k < n; ++k) {
    long long left = 0, right = 0;
    for (long long i = 0; i < n; ++i)
      left += u(i) * static_cast<long long>(a[i * n + k]);
    for (long long j = 0; j < n; ++j)
      right += static_cast<long long>(b[k * n + j]) * v(j);
    expected += left * right;
  }
  // And every 997th element (every one up to 256 x 256) against a product
  // computed here.
  long long checked = 0, mismatches = 0;
  const long long step = nn <= 65536 ? 1 : 997;
  for (long long e = 0; e < nn; e += step, ++checked) {
    const long long row = e / n, col = e % n;
    float sum = 0.0f;
    for (long long k = 0; k < n; ++k)
      sum += a[row * n + k] * b[k * n + col];
    mismatches += c[e] != sum;
  }

  for (int j = 0; j < 8; ++j)
    std::printf("%g%s", c[j], j == 7 ? " ...\n" : " ");
  std::printf("check: n=%d reps=%d weighted=%lld expected=%lld checked=%lld "
              "mismatches=%lld\n",
              n, reps, weighted, expected, checked, mismatches);
  return weighted == expected && mismatches == 0 ? 0 : 2;
}
