#pragma once
// polybench/jacobi2d.cpp split into three Ferry sources (issue 23): this
// header holds its constants and kernels (`inline`: both .cpp files include
// it) and declares what solver.cpp defines.
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#define N 32
#define TSTEPS 5
#define _PB_TSTEPS tsteps
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL inline void runJacobi2D_kernel1(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *B, int n) {
  int i = kc.y;
  int j = kc.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)))
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] +
                           A[(1 + i) * n + j] + A[(i - 1) * n + j]);
}

FERRY_KERNEL inline void runJacobi2D_kernel2(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *B, int n) {
  int i = kc.y;
  int j = kc.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)))
    A[i * n + j] = B[i * n + j];
}

// solver.cpp: the launch wrappers, which dispatch.
void cl_launch_kernel1(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       ferry::Buffer<DATA_TYPE> &b_mem_obj, int n);
void cl_launch_kernel2(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       ferry::Buffer<DATA_TYPE> &b_mem_obj, int n);
// setup.cpp: host code around the compute.
void init_array(int n, std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B);
void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                 ferry::Buffer<DATA_TYPE> &a_mem_obj, ferry::Buffer<DATA_TYPE> &b_mem_obj);
