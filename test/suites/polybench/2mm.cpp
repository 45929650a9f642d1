// PolyBench-ACC 2mm, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/2mm/2mm.c (host) and 2mm.cl
// (mm2_kernel1, mm2_kernel2).
//
// D = alpha * A * B * C + beta * D in two kernels through tmp. As in the
// original, cl_mem_init copies all five host arrays (tmp, A, B, C,
// D_outputFromGpu) into their buffers, cl_launch_kernel() dispatches the two
// kernels over 2-D ranges rounded up to 32 x 8 (both sized from NI and NL),
// and main reads D back into D_outputFromGpu. The original's buffers are
// globals; Ferry rejects those (findings/global_buffer_pointer.cpp), so main
// owns them and passes them along. Small integer inputs: every sum is exact.
//
//   2mm [n]      (NI = NJ = NK = NL = n, at most 64)
//
// Bytes the ORIGINAL host code moves at 64 (floats, a matrix 64*64*4 = 16384 B):
//   clEnqueueWriteBuffer tmp, A, B, C, D: 5 x 16384 = 81920
//   clEnqueueReadBuffer  D:                            16384
//   in 5 (81920 B), out 1 (16384 B).
// Whole-buffer optimum: kernel1 reads A and B (host-written): in (2); it
// zeroes tmp[i][j] and then accumulates into it, over a grid covering tmp:
// no copy in. kernel2 reads C and D (D *= beta), host-written: in (2). The
// host reads D afterwards: out (1); it never reads tmp, A, B, C.
//   in 4 (65536 B), out 1 (16384 B), 2 dispatches.
// suite-original: to_device 5 to_device_bytes 81920 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// ferry-test: to_device 4 to_device_bytes 65536 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 2
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NI 64
#define NJ 64
#define NK 64
#define NL 64
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void mm2_kernel1(ferry::KernelContext kc, DATA_TYPE *tmp, DATA_TYPE *A,
                              DATA_TYPE *B, int ni, int nj, int nk, int /*nl*/,
                              DATA_TYPE alpha, DATA_TYPE /*beta*/) {
  int j = kc.x;
  int i = kc.y;
  if ((i < ni) && (j < nj)) {
    tmp[i * nj + j] = 0;
    for (int k = 0; k < nk; k++)
      tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

FERRY_KERNEL void mm2_kernel2(ferry::KernelContext kc, DATA_TYPE *tmp, DATA_TYPE *C,
                              DATA_TYPE *D, int ni, int nj, int /*nk*/, int nl,
                              DATA_TYPE /*alpha*/, DATA_TYPE beta) {
  int j = kc.x;
  int i = kc.y;
  if ((i < ni) && (j < nl)) {
    D[i * nl + j] *= beta;
    for (int k = 0; k < nj; k++)
      D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
  }
}

void init_array(int ni, int nj, int nk, int nl, DATA_TYPE *alpha, DATA_TYPE *beta,
                std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                std::vector<DATA_TYPE> &C, std::vector<DATA_TYPE> &D) {
  *alpha = 3;
  *beta = 2;
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nk; j++)
      A[i * NK + j] = (DATA_TYPE)((i * j + 1) % 5 - 2);
  for (int i = 0; i < nk; i++)
    for (int j = 0; j < nj; j++)
      B[i * NJ + j] = (DATA_TYPE)((i * (j + 1)) % 5 - 2);
  for (int i = 0; i < nl; i++)
    for (int j = 0; j < nj; j++)
      C[i * NJ + j] = (DATA_TYPE)((i * (j + 3)) % 5 - 2);
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++)
      D[i * NL + j] = (DATA_TYPE)((i * (j + 2)) % 7 - 3);
}

void cl_mem_init(std::vector<DATA_TYPE> &tmp, std::vector<DATA_TYPE> &A,
                 std::vector<DATA_TYPE> &B, std::vector<DATA_TYPE> &C,
                 std::vector<DATA_TYPE> &D_outputFromGpu,
                 ferry::Buffer<DATA_TYPE> &tmp_mem_obj, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj,
                 ferry::Buffer<DATA_TYPE> &dOutputFromGpu_mem_obj) {
  std::copy(tmp.begin(), tmp.end(), tmp_mem_obj.begin());
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(B.begin(), B.end(), b_mem_obj.begin());
  std::copy(C.begin(), C.end(), c_mem_obj.begin());
  std::copy(D_outputFromGpu.begin(), D_outputFromGpu.end(), dOutputFromGpu_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int ni, int nj, int nk, int nl,
                                    DATA_TYPE alpha, DATA_TYPE beta,
                                    ferry::Buffer<DATA_TYPE> &tmp_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &b_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &c_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &dOutputFromGpu_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NL) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(mm2_kernel1, ferry::Range(globalWorkSize[0], globalWorkSize[1]), tmp_mem_obj,
              a_mem_obj, b_mem_obj, ni, nj, nk, nl, alpha, beta);
  globalWorkSize[0] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NL) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(mm2_kernel2, ferry::Range(globalWorkSize[0], globalWorkSize[1]), tmp_mem_obj,
              c_mem_obj, dOutputFromGpu_mem_obj, ni, nj, nk, nl, alpha, beta);
}

int main(int argc, char *argv[]) {
  int ni = argc > 1 ? std::atoi(argv[1]) : NI;
  int nj = ni, nk = ni, nl = ni;
  DATA_TYPE alpha, beta;
  std::vector<DATA_TYPE> tmp(NI * NJ), A(NI * NK), B(NK * NJ), C(NL * NJ), D(NI * NL),
      D_outputFromGpu(NI * NL);
  init_array(ni, nj, nk, nl, &alpha, &beta, A, B, C, D);
  D_outputFromGpu = D;

  ferry::Buffer<DATA_TYPE> tmp_mem_obj(NI * NJ), a_mem_obj(NI * NK), b_mem_obj(NK * NJ),
      c_mem_obj(NL * NJ), dOutputFromGpu_mem_obj(NI * NL);
  cl_mem_init(tmp, A, B, C, D_outputFromGpu, tmp_mem_obj, a_mem_obj, b_mem_obj, c_mem_obj,
              dOutputFromGpu_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, ni, nj, nk, nl, alpha, beta, tmp_mem_obj, a_mem_obj, b_mem_obj,
                     c_mem_obj, dOutputFromGpu_mem_obj);
  });
  std::copy(dOutputFromGpu_mem_obj.begin(), dOutputFromGpu_mem_obj.end(),
            D_outputFromGpu.begin());

  std::printf("2mm %d\n", ni);
  printApprox("D", D_outputFromGpu.data(), D_outputFromGpu.size());
  return 0;
}
