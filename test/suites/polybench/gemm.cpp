// PolyBench-ACC gemm, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/gemm/gemm.c (host) and gemm.cl (gemm).
//
// C = alpha A B + beta C. As in the original, cl_mem_init copies A, B and C
// into their buffers, cl_launch_kernel() dispatches the kernel over a 2-D
// range rounded up to 32 x 8, and main reads C back into C_outputFromGpu.
// The original's buffers are globals; Ferry rejects those
// (findings/global_buffer_pointer.cpp), so main owns them. Small integer
// inputs: every sum is exact.
//
//   gemm [n]      (NI = NJ = NK = n, at most 64)
//
// Bytes the ORIGINAL host code moves at 64 (a matrix 64*64*4 = 16384 B):
//   clEnqueueWriteBuffer A, B, C: 3 x 16384 = 49152
//   clEnqueueReadBuffer  C:                   16384
//   in 3 (49152 B), out 1 (16384 B).
// Whole-buffer optimum: the kernel reads A, B and C (c *= beta), all
// host-written: in (3). The host reads C: out (1).
//   in 3 (49152 B), out 1 (16384 B), 1 dispatch: equal to the original.
// suite-original: to_device 3 to_device_bytes 49152 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// ferry-test: to_device 3 to_device_bytes 49152 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 1
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NI 64
#define NJ 64
#define NK 64
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void gemm(ferry::KernelContext kc, DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c,
                       DATA_TYPE alpha, DATA_TYPE beta, int ni, int nj, int nk) {
  int j = kc.x;
  int i = kc.y;
  if ((i < ni) && (j < nj)) {
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

void init(int ni, int nj, int nk, DATA_TYPE *alpha, DATA_TYPE *beta,
          std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B, std::vector<DATA_TYPE> &C) {
  *alpha = 2;
  *beta = 3;
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nk; j++)
      A[i * NK + j] = (DATA_TYPE)((i * j) % 5 - 2);
  for (int i = 0; i < nk; i++)
    for (int j = 0; j < nj; j++)
      B[i * NJ + j] = (DATA_TYPE)((i * j + 1) % 5 - 2);
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      C[i * NJ + j] = (DATA_TYPE)((i * j + 2) % 7 - 3);
}

void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                 std::vector<DATA_TYPE> &C, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(B.begin(), B.end(), b_mem_obj.begin());
  std::copy(C.begin(), C.end(), c_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int ni, int nj, int nk,
                                    DATA_TYPE alpha, DATA_TYPE beta,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &b_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &c_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NJ) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(gemm, ferry::Range(globalWorkSize[0], globalWorkSize[1]), a_mem_obj, b_mem_obj,
              c_mem_obj, alpha, beta, ni, nj, nk);
}

int main(int argc, char *argv[]) {
  int ni = argc > 1 ? std::atoi(argv[1]) : NI;
  int nj = ni, nk = ni;
  DATA_TYPE alpha, beta;
  std::vector<DATA_TYPE> A(NI * NK), B(NK * NJ), C(NI * NJ), C_outputFromGpu(NI * NJ);
  init(ni, nj, nk, &alpha, &beta, A, B, C);

  ferry::Buffer<DATA_TYPE> a_mem_obj(NI * NK), b_mem_obj(NK * NJ), c_mem_obj(NI * NJ);
  cl_mem_init(A, B, C, a_mem_obj, b_mem_obj, c_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, ni, nj, nk, alpha, beta, a_mem_obj, b_mem_obj, c_mem_obj);
  });
  std::copy(c_mem_obj.begin(), c_mem_obj.end(), C_outputFromGpu.begin());

  std::printf("gemm %d\n", ni);
  printApprox("C", C_outputFromGpu.data(), C_outputFromGpu.size());
  return 0;
}
