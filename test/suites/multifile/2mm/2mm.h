#pragma once
// polybench/2mm.cpp split into four Ferry sources (issue 23): this header
// holds its constants and kernels (`inline`: the sources include it) and
// declares what solver.cpp and setup.cpp define.
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

FERRY_KERNEL inline void mm2_kernel1(ferry::KernelContext kc, DATA_TYPE *tmp, DATA_TYPE *A,
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

FERRY_KERNEL inline void mm2_kernel2(ferry::KernelContext kc, DATA_TYPE *tmp, DATA_TYPE *C,
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

// solver.cpp: the compute function, which main.cpp starts with acc.compute.
FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int ni, int nj, int nk, int nl,
                                    DATA_TYPE alpha, DATA_TYPE beta,
                                    ferry::Buffer<DATA_TYPE> &tmp_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &b_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &c_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &dOutputFromGpu_mem_obj);
// setup.cpp: host code around the compute.
void init_array(int ni, int nj, int nk, int nl, DATA_TYPE *alpha, DATA_TYPE *beta,
                std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                std::vector<DATA_TYPE> &C, std::vector<DATA_TYPE> &D);
void cl_mem_init(std::vector<DATA_TYPE> &tmp, std::vector<DATA_TYPE> &A,
                 std::vector<DATA_TYPE> &B, std::vector<DATA_TYPE> &C,
                 std::vector<DATA_TYPE> &D_outputFromGpu,
                 ferry::Buffer<DATA_TYPE> &tmp_mem_obj, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj,
                 ferry::Buffer<DATA_TYPE> &dOutputFromGpu_mem_obj);
