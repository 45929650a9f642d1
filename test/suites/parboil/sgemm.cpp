// Parboil sgemm, OpenCL base version, written anew in Ferry's dialect.
// Original: github.com/abduld/Parboil, benchmarks/sgemm/src/opencl_base/
// main.cc (host, basicSgemm) and kernel.cl (mysgemmNT).
//
// C = alpha * A * B^T + beta * C with A (m x k) and B^T (n x k) column-major,
// one work-item per element of C over a 2-D range. As in the original, the
// inputs arrive in std::vectors and are copied into the device buffers, C is
// zeroed by a host loop and copied in (the kernel reads beta * C), and the
// dispatch sits in a launch-wrapper helper, basicSgemm. Inputs are small
// integers, so every product and sum is exact in float.
//
//   sgemm [M N K]          (M, N multiples of 32 as the original requires)
//
// Bytes the ORIGINAL host code moves at 64 x 64 x 32 (floats):
//   clEnqueueWriteBuffer dA   m*k*4  = 64*32*4 =  8192
//   clEnqueueWriteBuffer dB   n*k*4  = 64*32*4 =  8192
//   clEnqueueWriteBuffer dC   m*n*4  = 64*64*4 = 16384  (the zeroed C)
//   clEnqueueReadBuffer  dC   m*n*4            = 16384
//   in 3 (32768 B), out 1 (16384 B).
// Whole-buffer optimum: A and B are read by the kernel and written by the
// host: in (2). The kernel reads C (beta * C), written last by the host: in
// (1). The host prints C afterwards: out (1). Nothing can be dropped, so the
// optimum equals the original: in 3 (32768 B), out 1 (16384 B), 1 dispatch.
// suite-original: to_device 3 to_device_bytes 32768 from_device 1 from_device_bytes 16384
// ferry-test: args 64 64 32
// ferry-test: to_device 3 to_device_bytes 32768 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 1
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

FERRY_KERNEL void mysgemmNT(ferry::KernelContext kc, const float *A, int lda,
                            const float *B, int ldb, float *C, int ldc, int k,
                            float alpha, float beta) {
  float c = 0.0f;
  const int m = kc.x;
  const int n = kc.y;
  for (int i = 0; i < k; ++i) {
    const float a = A[m + i * lda];
    const float b = B[n + i * ldb];
    c += a * b;
  }
  C[m + n * ldc] = beta * C[m + n * ldc] + alpha * c;
}

// The original's launch wrapper: checks the transposition flags, then
// dispatches one work-item per element of C.
void basicSgemm(ferry::ComputeContext &cc, char transa, char transb, int m,
                int n, int k, float alpha, ferry::Buffer<float> &A, int lda,
                ferry::Buffer<float> &B, int ldb, float beta,
                ferry::Buffer<float> &C, int ldc) {
  if (transa != 'N' && transa != 'n')
    return;
  if (transb != 'T' && transb != 't')
    return;
  cc.dispatch(mysgemmNT, ferry::Range(m, n), A, lda, B, ldb, C, ldc, k, alpha,
              beta);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, const std::vector<float> &matA,
                       const std::vector<float> &matBT, ferry::Buffer<float> &dA,
                       ferry::Buffer<float> &dB, ferry::Buffer<float> &dC,
                       int m, int n, int k) {
  std::copy(matA.begin(), matA.end(), dA.begin());
  std::copy(matBT.begin(), matBT.end(), dB.begin());
  for (std::size_t i = 0; i < dC.size(); i++)
    dC[i] = 0.0f;
  basicSgemm(cc, 'N', 'T', m, n, k, 1.0f, dA, m, dB, n, 0.0f, dC, m);
}

int main(int argc, char **argv) {
  const int m = argc > 1 ? std::atoi(argv[1]) : 64;
  const int n = argc > 2 ? std::atoi(argv[2]) : 64;
  const int k = argc > 3 ? std::atoi(argv[3]) : 32;
  // The original reads these from files; here small integers, generated.
  std::vector<float> matA(m * k), matBT(n * k);
  for (int i = 0; i < m * k; ++i)
    matA[i] = static_cast<float>((i * 7 + 3) % 11 - 5);
  for (int i = 0; i < n * k; ++i)
    matBT[i] = static_cast<float>((i * 5 + 1) % 9 - 4);
  ferry::Buffer<float> dA(m * k), dB(n * k), dC(m * n, 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, matA, matBT, dA, dB, dC, m, n, k); });
  std::printf("sgemm %dx%dx%d\n", m, n, k);
  printExact("C", dC);
}
