// sgemm: C = A x B for square row-major n x n floats, register-tiled, beside
// the plain one-work-item-per-element `matmul`. Each work-group of 16 x 16
// work-items computes a 128 x 128 block of C; each work-item an 8 x 8 block
// of it, held in private float4s. The group walks k in slices of 8: it
// stages a 128 x 8 slice of A (transposed) and an 8 x 128 slice of B in
// local memory, every element loaded from global memory once per group, and
// each work-item then does 8 x 8 multiply-adds per four float4 reads of
// local memory. That reuse is what makes it fast: the plain kernel reads two
// global values per multiply-add. Around that:
// * every access that can be is a float4: one 16-byte load or store instead
//   of four (the A slice is stored transposed, float by float);
// * local memory holds two slices of each: while the group multiplies one,
//   each work-item stores the next (loaded into registers at the top of the
//   step, so the wait for global memory overlaps the arithmetic) into the
//   other, so one barrier per slice suffices;
// * within a slice, step k + 1's float4s are read from local memory while
//   step k's are multiplied.
// A work-item's rows are 4 ty .. 4 ty + 3 and 64 more, its columns 4 tx ..
// 4 tx + 3 and 64 more (ty, tx: its local ids): a warp (two values of ty)
// reads 2 float4s of the A slice and 16 consecutive ones of B per step, and
// its float4 stores of C cover 256 consecutive bytes of a row. The A
// slice's rows are padded to 132 floats so that its transposing stores fall
// in different banks.
//
// Local memory is declared as `Quad`s, plain structs aligned to 16 bytes,
// and read through float4 pointers: OpenCL aligns a `__local float` array
// to 4 bytes only, and reading one as float4 faulted on the GPU. A
// `ferry::Local` of `ferry::float4` is refused (the vector's constructor
// zeroes it, so it is not trivially default-constructible), and `vload4`
// assumes only 4-byte alignment: the NVIDIA compiler splits it into four
// loads. The matrices are members of one `Matrices` object so that Ferry
// can tell the dispatch's three buffers apart: the kernel's pointers are
// then `restrict` and its barriers fence local memory alone (docs/emit.md,
// "Barrier fences").
//
// Measured on an NVIDIA H200 (OpenCL kernel time by event profiling, best
// of 5, as bench/kernels.sh times it: `FERRY_DEVICE=gpu FERRY_TRACE=t.json
// sgemm N 5`, the least `sgemmTiled` duration), beside cuBLAS FP32
// (bench/cublas/sgemm_cublas.cu, CUDA events, best of 5) in the same run:
//   n = 4096: 3.016 ms, 45.6 TFLOP/s; cuBLAS 2.694 ms, 51.0: 0.89x
//   n = 8192: 23.99 ms, 45.8 TFLOP/s; cuBLAS 21.57 ms, 51.0: 0.90x
// (another run: 45.6 and 45.9 against 50.8 and 51.0). The kernel before
// (scalar loads, outputs strided by 16, two barriers per slice, same block
// and slices) took 4.148 and 32.34 ms: 33.1 and 34.0 TFLOP/s. Tried and
// slower there: slices of 16 (more than 128 registers, so one group per
// multiprocessor instead of two: 36 to 42 TFLOP/s; loading the next slice
// in halves fits 120 registers but reached 43.3), warps of 4 x 8 work-items
// or computing 32 x 64 sub-blocks (43.8 to 45.5), and groups reordered into
// strips of block rows for the L2 cache (45.3 at best). Declaring the
// kernel `__attribute__((reqd_work_group_size(16, 16, 1)))`, which every
// dispatch here would allow, made it much slower on the H200 (4.45 ms
// against 3.02 at n = 4096, 35.5 against 24.0 at 8192, one run side by
// side): Ferry does not emit it.
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
constexpr int kQuads = kBlock * kSlice / 4 / kThreads; // float4 loads per slice
constexpr int kPitchA = kBlock + 4;   // the transposed A slice's pitch
constexpr int kSizeA = kSlice * kPitchA; // floats of one A slice
constexpr int kSizeB = kSlice * kBlock;  // and of one B slice
constexpr int kRowStep = 64;          // a work-item's two row quads apart
constexpr int kColStep = 64;          // its two column quads apart

// Four floats on a 16-byte boundary: local memory of these can be read as
// float4s.
struct alignas(16) Quad {
  float x, y, z, w;
};

// Range(n / kPer, n / kPer).local(kItems, kItems): groupX is the block's
// column of blocks, groupY its row.
FERRY_KERNEL void sgemmTiled(ferry::KernelContext kc, FERRY_RO const float *a,
                             FERRY_RO const float *b, FERRY_WO float *c,
                             int n) {
  // Two slices of each: [buffer][k][row] (A transposed, rows padded to
  // kPitchA floats) and [buffer][k][column].
  ferry::Local<Quad, 2 * kSizeA / 4> aLocal;
  ferry::Local<Quad, 2 * kSizeB / 4> bLocal;
  float *aStore = reinterpret_cast<float *>(aLocal.data());
  ferry::float4 *aSlice = reinterpret_cast<ferry::float4 *>(aLocal.data());
  ferry::float4 *bSlice = reinterpret_cast<ferry::float4 *>(bLocal.data());
  // n is a multiple of 128, so every row of the matrices starts on a float4.
  const ferry::float4 *a4 = reinterpret_cast<const ferry::float4 *>(a);
  const ferry::float4 *b4 = reinterpret_cast<const ferry::float4 *>(b);
  ferry::float4 *c4 = reinterpret_cast<ferry::float4 *>(c);
  const int self = kc.localY * kItems + kc.localX;
  // The work-item's rows are 4 rowQuad .. 4 rowQuad + 3 and kRowStep more,
  // its columns 4 colQuad .. 4 colQuad + 3 and kColStep more.
  const int rowQuad = kc.localY;
  const int colQuad = kc.localX;
  const int rowBase = kc.groupY * kBlock;
  const int colBase = kc.groupX * kBlock;
  const int n4 = n / 4;

  // acc[i][h]: row 4 rowQuad + i % 4 (+ kRowStep for i >= 4), columns
  // 4 colQuad .. 4 colQuad + 3 (+ kColStep for h = 1).
  ferry::float4 acc[kPer][2];
  for (int i = 0; i < kPer; ++i) {
    acc[i][0] = ferry::float4(0.0f, 0.0f, 0.0f, 0.0f);
    acc[i][1] = ferry::float4(0.0f, 0.0f, 0.0f, 0.0f);
  }

  // Work-item `self` loads float4s q = self, self + kThreads, ... of each
  // slice: of A's (row-major, kSlice / 4 float4s wide; stored transposed)
  // and of B's (kBlock / 4 wide), consecutive work-items at consecutive
  // addresses.
  ferry::float4 aNext[kQuads];
  ferry::float4 bNext[kQuads];
  for (int l = 0; l < kQuads; ++l) {
    const int q = self + l * kThreads;
    aNext[l] = a4[(rowBase + q / (kSlice / 4)) * n4 + q % (kSlice / 4)];
    bNext[l] = b4[(q / (kBlock / 4)) * n4 + colBase / 4 + q % (kBlock / 4)];
  }
  for (int l = 0; l < kQuads; ++l) {
    const int q = self + l * kThreads;
    const int row = q / (kSlice / 4);
    const int k = 4 * (q % (kSlice / 4));
    aStore[k * kPitchA + row] = aNext[l].x;
    aStore[(k + 1) * kPitchA + row] = aNext[l].y;
    aStore[(k + 2) * kPitchA + row] = aNext[l].z;
    aStore[(k + 3) * kPitchA + row] = aNext[l].w;
    bSlice[q] = bNext[l];
  }
  kc.barrier();

  for (int k0 = 0; k0 < n; k0 += kSlice) {
    const int cur = (k0 / kSlice) % 2;
    const bool more = k0 + kSlice < n;
    // The next slice's loads are in flight while this one is multiplied.
    if (more) {
      for (int l = 0; l < kQuads; ++l) {
        const int q = self + l * kThreads;
        aNext[l] = a4[(rowBase + q / (kSlice / 4)) * n4 + (k0 + kSlice) / 4 +
                      q % (kSlice / 4)];
        bNext[l] = b4[(k0 + kSlice + q / (kBlock / 4)) * n4 + colBase / 4 +
                      q % (kBlock / 4)];
      }
    }
    const int aCur = cur * kSizeA / 4 + rowQuad;
    const int bCur = cur * kSizeB / 4 + colQuad;
    ferry::float4 a0 = aSlice[aCur];
    ferry::float4 a1 = aSlice[aCur + kRowStep / 4];
    ferry::float4 b0 = bSlice[bCur];
    ferry::float4 b1 = bSlice[bCur + kColStep / 4];
    for (int k = 0; k < kSlice; ++k) {
      // The next k's values (k = 0 again after the last: harmless) are read
      // while this k's are multiplied.
      const int kn = (k + 1) % kSlice;
      const ferry::float4 na0 = aSlice[aCur + kn * (kPitchA / 4)];
      const ferry::float4 na1 = aSlice[aCur + kn * (kPitchA / 4) + kRowStep / 4];
      const ferry::float4 nb0 = bSlice[bCur + kn * (kBlock / 4)];
      const ferry::float4 nb1 = bSlice[bCur + kn * (kBlock / 4) + kColStep / 4];
      acc[0][0] += a0.x * b0;
      acc[0][1] += a0.x * b1;
      acc[1][0] += a0.y * b0;
      acc[1][1] += a0.y * b1;
      acc[2][0] += a0.z * b0;
      acc[2][1] += a0.z * b1;
      acc[3][0] += a0.w * b0;
      acc[3][1] += a0.w * b1;
      acc[4][0] += a1.x * b0;
      acc[4][1] += a1.x * b1;
      acc[5][0] += a1.y * b0;
      acc[5][1] += a1.y * b1;
      acc[6][0] += a1.z * b0;
      acc[6][1] += a1.z * b1;
      acc[7][0] += a1.w * b0;
      acc[7][1] += a1.w * b1;
      a0 = na0;
      a1 = na1;
      b0 = nb0;
      b1 = nb1;
    }
    // Into the other buffer, which no work-item reads in this step: its
    // last readers passed the barrier that ended the previous one.
    if (more) {
      const int next = (1 - cur) * kSizeA;
      for (int l = 0; l < kQuads; ++l) {
        const int q = self + l * kThreads;
        const int row = q / (kSlice / 4);
        const int k = 4 * (q % (kSlice / 4));
        aStore[next + k * kPitchA + row] = aNext[l].x;
        aStore[next + (k + 1) * kPitchA + row] = aNext[l].y;
        aStore[next + (k + 2) * kPitchA + row] = aNext[l].z;
        aStore[next + (k + 3) * kPitchA + row] = aNext[l].w;
        bSlice[(1 - cur) * kSizeB / 4 + q] = bNext[l];
      }
    }
    kc.barrier();
  }

  for (int i = 0; i < kPer; ++i) {
    const int row = rowBase + 4 * rowQuad + (i / 4) * kRowStep + i % 4;
    c4[(row * n + colBase) / 4 + colQuad] = acc[i][0];
    c4[(row * n + colBase + kColStep) / 4 + colQuad] = acc[i][1];
  }
}

// The three matrices, members of one object: the dispatch then binds three
// buffers Ferry can tell apart.
struct Matrices {
  ferry::Buffer<float> a, b, c;
};

FERRY_COMPUTE void sgemm(ferry::ComputeContext &cc, Matrices &m, int n,
                         int reps) {
  for (int rep = 0; rep < reps; ++rep)
    cc.dispatch(sgemmTiled, ferry::Range(n / kPer, n / kPer).local(kItems, kItems),
                m.a, m.b, m.c, n);
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
  Matrices m{ferry::Buffer<float>(nn), ferry::Buffer<float>(nn),
             ferry::Buffer<float>(nn)};
  ferry::Buffer<float> &a = m.a, &b = m.b, &c = m.c;
  for (long long i = 0; i < nn; ++i) {
    a[i] = entryA(i);
    b[i] = entryB(i);
  }

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { sgemm(cc, m, n, reps); });

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
