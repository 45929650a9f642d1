// cuBLAS SGEMM as the mark for Ferry's SGEMM (issue 31): C = A * B on n x n
// floats, FP32 throughout (CUBLAS_PEDANTIC_MATH: no TF32, no reduced
// precision), timed by CUDA events around each call, best and mean of REPS
// after one untimed call.
//
//   sgemm_cublas N [REPS]      (default REPS 5)
//
// Built on the device machine, which has CUDA 13 (bench/kernels.sh and
// bench/targets.sh do it there): nvcc -O2 -o sgemm_cublas sgemm_cublas.cu
// -lcublas. A and B hold small integers (0 to 3), so every entry of C is an
// exact integer in FP32 (at most 9n < 2^24); 64 entries are checked against
// the host's product. Prints key=value lines, as bench/clblast_sgemm does.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "sgemm_cublas: %s: %s\n", #call,                    \
                   cudaGetErrorString(e_));                                    \
      return 1;                                                                \
    }                                                                          \
  } while (0)
#define CHECK_CUBLAS(call)                                                     \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "sgemm_cublas: %s: status %d\n", #call, int(s_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sgemm_cublas N [REPS]\n");
    return 1;
  }
  const int n = std::atoi(argv[1]);
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n <= 0 || reps <= 0) {
    std::fprintf(stderr, "sgemm_cublas: N and REPS must be positive\n");
    return 1;
  }
  const size_t count = size_t(n) * n;
  std::vector<float> a(count), b(count), c(count);
  for (size_t i = 0; i < count; ++i) {
    a[i] = float((i * 7 + i / n) % 4);
    b[i] = float((i * 5 + 3 * (i / n)) % 4);
  }

  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  float *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, count * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, count * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dc, count * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), count * sizeof(float), cudaMemcpyHostToDevice));

  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  CHECK_CUBLAS(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A * B is column-major C^T = B^T * A^T: pass B first.
  auto gemm = [&]() {
    return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db,
                        CUDA_R_32F, n, da, CUDA_R_32F, n, &zero, dc, CUDA_R_32F,
                        n, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
  };
  CHECK_CUBLAS(gemm());
  CHECK_CUDA(cudaDeviceSynchronize());

  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms(reps);
  for (int r = 0; r < reps; ++r) {
    CHECK_CUDA(cudaEventRecord(start));
    CHECK_CUBLAS(gemm());
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&ms[r], start, stop));
  }
  CHECK_CUDA(cudaMemcpy(c.data(), dc, count * sizeof(float), cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int k = 0; k < 64; ++k) {
    const size_t i = (size_t(k) * 2654435761u) % n, j = (size_t(k) * 40503u + 17) % n;
    double want = 0.0;
    for (int p = 0; p < n; ++p)
      want += double(a[i * n + p]) * double(b[size_t(p) * n + j]);
    if (double(c[i * n + j]) != want)
      ++wrong;
  }
  const float best = *std::min_element(ms.begin(), ms.end());
  double mean = 0.0;
  for (float t : ms)
    mean += t;
  mean /= reps;
  std::printf("device=%s\n", prop.name);
  std::printf("n=%d\nreps=%d\nbest_ms=%.4f\nmean_ms=%.4f\n", n, reps, best, mean);
  std::printf("tflops=%.2f\n", 2.0 * n * double(n) * n / (best * 1e9));
  std::printf("check=%s\n", wrong == 0 ? "ok" : "WRONG");
  cublasDestroy(handle);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return wrong == 0 ? 0 : 1;
}
