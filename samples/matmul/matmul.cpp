// matmul: C = A x B over a 2-D range, one work-item per element of C. The
// inputs are read-only (FERRY_RO, const) and the output write-only
// (FERRY_WO), so each input crosses to the device once and the output only
// comes back. The entries are small integers held in floats, so every sum is
// exact and the host's check agrees bit for bit.
//
//   matmul [M] [K] [N]       A is MxK, B is KxN, C is MxN
//
// Transfers, by hand, for the default 24x16 times 16x8 (floats):
//   `a` (24*16*4 = 1536 B) and `b` (16*8*4 = 512 B) are read by the kernel
//   and stale on the device: in (2, 2048 B).
//   `c` (24*8*4 = 768 B) is stored at c[kc.y * kc.maxX + kc.x] by every
//   work-item of the 8x24 range: fully overwritten, no copy in.
//   exit: `c` is stale on the host and the caller reads it: out (1, 768 B).
// In 2 (2048 B), out 1 (768 B), 1 dispatch.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 2048 from_device 1 from_device_bytes 768
// ferry-test: dispatches 1
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Range(n, m): kc.x is the column of C (maxX = n), kc.y its row.
FERRY_KERNEL void multiply(ferry::KernelContext kc, FERRY_RO const float *a,
                           FERRY_RO const float *b, FERRY_WO float *c, int k) {
  const int n = kc.maxX;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i)
    sum += a[kc.y * k + i] * b[i * n + kc.x];
  c[kc.y * kc.maxX + kc.x] = sum;
}

FERRY_COMPUTE void matmul(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                          ferry::Buffer<float> &b, ferry::Buffer<float> &c,
                          int m, int k, int n) {
  cc.dispatch(multiply, ferry::Range(n, m), a, b, c, k);
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: matmul [M] [K] [N]\n"
    "  M  rows of A and C, 1 to 2048 (default 24)\n"
    "  K  columns of A, rows of B, 1 to 2048 (default 16)\n"
    "  N  columns of B and C, 1 to 2048 (default 8)\n";

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
                 "matmul: %s must be a whole number from %d to %d, not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 4) {
    std::fprintf(stderr, "matmul: too many arguments\n");
    usage(1);
  }
  const int m = intArgument(argc, argv, 1, "M", 1, 2048, 24);
  const int k = intArgument(argc, argv, 2, "K", 1, 2048, 16);
  const int n = intArgument(argc, argv, 3, "N", 1, 2048, 8);

  ferry::Buffer<float> a(m * k), b(k * n), c(m * n);
  for (int i = 0; i < m * k; ++i)
    a[i] = static_cast<float>((i * 7 + 3) % 11 - 5);
  for (int i = 0; i < k * n; ++i)
    b[i] = static_cast<float>((i * 5 + 1) % 9 - 4);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { matmul(cc, a, b, c, m, k, n); });

  // The first row of C, then C checked against a product computed here.
  for (int j = 0; j < n && j < 8; ++j)
    std::printf("%g%s", c[j], j + 1 == n ? "\n" : j == 7 ? " ...\n" : " ");
  long long trace = 0, mismatches = 0;
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col) {
      float expected = 0.0f;
      for (int i = 0; i < k; ++i)
        expected += a[row * k + i] * b[i * n + col];
      mismatches += c[row * n + col] != expected;
      if (row == col)
        trace += static_cast<long long>(c[row * n + col]);
    }
  std::printf("check: %dx%d * %dx%d trace=%lld mismatches=%lld\n", m, k, k, n,
              trace, mismatches);
  return 0;
}
