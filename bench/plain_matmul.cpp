// samples/matmul's kernel (one work-item per element of C), in a program
// that bench/kernels.sh can run at n = 8192: the sample checks its whole
// product on the host, which takes hours there. Same entries and the same
// weighted sum of C as samples/sgemm.
//
//   plain_matmul N REPS      the product computed REPS times in one compute
#include <ferry/ferry.hpp>

#include "sgemm_common.hpp"

#include <cstdio>
#include <cstdlib>

// As samples/matmul: Range(n, m), kc.x the column of C, kc.y its row.
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
                          int n, int reps) {
  for (int rep = 0; rep < reps; ++rep)
    cc.dispatch(multiply, ferry::Range(n, n), a, b, c, n);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 1;
  if (n <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: plain_matmul N REPS\n");
    return 1;
  }
  const long long nn = static_cast<long long>(n) * n;
  ferry::Buffer<float> a(nn), b(nn), c(nn);
  for (long long i = 0; i < nn; ++i) {
    a[i] = sgemm::entryA(i);
    b[i] = sgemm::entryB(i);
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { matmul(cc, a, b, c, n, reps); });
  std::printf("weighted=%lld\n", sgemm::weighted(c.data(), n));
  return 0;
}
