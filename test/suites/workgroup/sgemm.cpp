// Parboil sgemm (C = alpha * A * B^T + beta * C, register tiling), OpenCL
// NVIDIA version, written anew in Ferry's dialect. Original:
// github.com/yuhc/gpu-parboil, benchmarks/sgemm/src/opencl_nvidia/kernel.cl
// (mysgemmNT) and main.cc (regtileSgemm, main).
//
// mysgemmNT is the original's: each work-item of a TILE_N x TILE_TB_HEIGHT
// (16 x 8) group keeps TILE_N partial results in a private array c[], the
// group stages a TILE_TB_HEIGHT x TILE_N tile of B in local memory
// (`__local float b_s[8][16]`, here a ferry::Local<float, 8 * 16>), and
// barriers separate the tile's load from its use. Group and lane ids are
// kc.groupX / kc.groupY and kc.localX / kc.localY, the group's width
// kc.localSizeX. The host is main.cc's: A (column-major) and B^T uploaded,
// C zeroed on the host and uploaded, one regtileSgemm('N', 'T', ...) with
// alpha = 1 and beta = 0, C read back. The matrices are generated (no
// files): small integers, so every product and sum is exact in float and
// C is printed exactly, and checked against a host product.
//
//   sgemm [M N K]   (M a multiple of 128, N of 16, K of 8)
//
// Bytes the ORIGINAL host code moves at M = 256, N = 128, K = 96 (floats):
//   clEnqueueWriteBuffer dA 256*96*4 = 98304, dB 128*96*4 = 49152,
//   dC 256*128*4 = 131072; clEnqueueReadBuffer dC 131072
//   in 3 (278528 B), out 1 (131072 B).
// Whole-buffer optimum: the same. The kernel reads C (C * beta), which the
// host wrote; local memory and the private arrays are never transferred.
// 1 dispatch.
// suite-original: to_device 3 to_device_bytes 278528 from_device 1 from_device_bytes 131072
// ferry-test: args 256 128 96
// ferry-test: to_device 3 to_device_bytes 278528 from_device 1 from_device_bytes 131072
// ferry-test: dispatches 1
#include "Print.h"

#include <cstdlib>
#include <vector>

#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

FERRY_KERNEL void mysgemmNT(ferry::KernelContext kc, const float *A, int lda, const float *B,
                            int ldb, float *C, int ldc, int k, float alpha, float beta) {
  // Partial results
  float c[TILE_N];
  for (int i = 0; i < TILE_N; i++)
    c[i] = 0.0f;

  int mid = kc.localY * kc.localSizeX + kc.localX;
  int m = kc.groupX * TILE_M + mid;
  int n = kc.groupY * TILE_N + kc.localX;

  ferry::Local<float, TILE_TB_HEIGHT * TILE_N> b_s;

  for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
    float a;
    b_s[kc.localY * TILE_N + kc.localX] = B[n + (i + kc.localY) * ldb];
    kc.barrier();
    for (int j = 0; j < TILE_TB_HEIGHT; j++) {
      a = A[m + (i + j) * lda];
      for (int kk = 0; kk < TILE_N; kk++)
        c[kk] += a * b_s[j * TILE_N + kk];
    }
    kc.barrier();
  }

  int t = ldc * kc.groupY * TILE_N + m;
  for (int i = 0; i < TILE_N; i++)
    C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
}

FERRY_COMPUTE void regtileSgemm(ferry::ComputeContext &cc, char transa, char transb, int m, int n,
                                int k, float alpha, ferry::Buffer<float> &A, int lda,
                                ferry::Buffer<float> &B, int ldb, float beta,
                                ferry::Buffer<float> &C, int ldc) {
  if ((transa != 'N') && (transa != 'n')) {
    std::printf("unsupported value of 'transa' in regtileSgemm()\n");
    return;
  }
  if ((transb != 'T') && (transb != 't')) {
    std::printf("unsupported value of 'transb' in regtileSgemm()\n");
    return;
  }
  if ((m % TILE_M) || (n % TILE_N)) {
    std::printf("unsupported size of matrix. m should be multiple of %d; n should be multiple of "
                "%d\n",
                TILE_M, TILE_N);
    return;
  }
  cc.dispatch(mysgemmNT,
              ferry::Range(m * TILE_N / TILE_M, n * TILE_TB_HEIGHT / TILE_N)
                  .local(TILE_N, TILE_TB_HEIGHT),
              A, lda, B, ldb, C, ldc, k, alpha, beta);
}

FERRY_COMPUTE void runSgemm(ferry::ComputeContext &cc, const std::vector<float> &matA,
                            const std::vector<float> &matBT, std::vector<float> &matC, int matArow,
                            int matAcol, int matBcol) {
  ferry::Buffer<float> dA(matA.size()), dB(matBT.size()), dC(matC.size());
  std::copy(matA.begin(), matA.end(), dA.begin());
  std::copy(matBT.begin(), matBT.end(), dB.begin());
  for (std::size_t i = 0; i < matC.size(); i++)
    matC[i] = 0.0f;
  std::copy(matC.begin(), matC.end(), dC.begin());

  regtileSgemm(cc, 'N', 'T', matArow, matBcol, matAcol, 1.0f, dA, matArow, dB, matBcol, 0.0f, dC,
               matArow);

  std::copy(dC.begin(), dC.end(), matC.begin());
}

int main(int argc, char **argv) {
  const int matArow = argc > 1 ? std::atoi(argv[1]) : 256;
  const int matBcol = argc > 2 ? std::atoi(argv[2]) : 128;
  const int matAcol = argc > 3 ? std::atoi(argv[3]) : 96;
  if (matArow % TILE_M || matBcol % TILE_N || matAcol % TILE_TB_HEIGHT) {
    std::printf("M must be a multiple of %d, N of %d, K of %d\n", TILE_M, TILE_N, TILE_TB_HEIGHT);
    return 1;
  }
  // Column-major A (M x K) and B^T (N x K, i.e. B column-major K x N read
  // as rows of B^T), entries in -2 .. 2.
  std::vector<float> matA(matArow * matAcol), matBT(matBcol * matAcol);
  unsigned seed = 5;
  auto small = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return static_cast<float>(static_cast<int>((seed >> 16) % 5) - 2);
  };
  for (float &v : matA)
    v = small();
  for (float &v : matBT)
    v = small();
  std::vector<float> matC(matArow * matBcol);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    runSgemm(cc, matA, matBT, matC, matArow, matAcol, matBcol);
  });

  long long check = 0;
  bool agrees = true;
  for (int col = 0; col < matBcol; col++)
    for (int row = 0; row < matArow; row++) {
      float expect = 0.0f;
      for (int kk = 0; kk < matAcol; kk++)
        expect += matA[row + kk * matArow] * matBT[col + kk * matBcol];
      const float got = matC[row + col * matArow];
      agrees = agrees && got == expect;
      check = (check * 31 + static_cast<long long>(got)) % 1000000007;
    }
  std::printf("C %d x %d: %.0f %.0f %.0f %.0f ... check=%lld\n", matArow, matBcol, matC[0],
              matC[1], matC[2], matC[3], check);
  std::printf("matches the host product: %s\n", agrees ? "yes" : "no");
}
