// PolyBench-ACC lu, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/solvers/lu/lu.c (host) and lu.cl (lu_kernel1/2).
//
// LU decomposition in place, without pivoting. As in the original, cl_mem_init
// copies the host array A into the device buffer a_mem_obj, main loops over k
// and calls the two launch wrappers cl_launch_kernel1(k, n) and
// cl_launch_kernel2(k, n), each of which dispatches only when k < n - 1 over
// a range rounded up to its work-group size (256 x 1, 32 x 8), and after the
// loop a_mem_obj is read back into A_outputFromGpu. The original keeps
// a_mem_obj in a global; Ferry rejects buffers reached through globals
// (findings/global_buffer_pointer.cpp), so main owns it and passes it on.
// The k loop stays in main, inside the lambda given to acc.compute; Ferry
// dispatches only from compute functions and its diagnostic says to mark the
// wrappers FERRY_COMPUTE, so they are (with the wrappers left plain, it
// rejects the dispatches; lu_computefn.cpp moves the loop into a compute
// function instead). The
// original's input (i*j+1)/N has rank 2 and divides by zero after two steps;
// here a diagonally dominant matrix instead.
//
//   lu [n]      (at most N = 64)
//
// Bytes the ORIGINAL host code moves at N = 64 (floats, 64*64*4 = 16384 B):
//   cl_mem_init: clEnqueueWriteBuffer a_mem_obj  N*N*4 = 16384
//   main:        clEnqueueReadBuffer  a_mem_obj  N*N*4 = 16384
//   in 1 (16384 B), out 1 (16384 B).
// Dispatches: both wrappers dispatch for k = 0..62: 126.
// Whole-buffer optimum: lu_kernel1 reads a_mem_obj, last written on the host
// (std::copy in cl_mem_init): in (1); every later read sees device writes.
// The host reads it afterwards (std::copy into A_outputFromGpu): out (1).
//   in 1 (16384 B), out 1 (16384 B), 126 dispatches: equal to the original.
// suite-original: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// ferry-test: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 126
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define N 64
#define _PB_N n
#define DIM_LOCAL_WORK_GROUP_KERNEL_1_X 256
#define DIM_LOCAL_WORK_GROUP_KERNEL_1_Y 1
#define DIM_LOCAL_WORK_GROUP_KERNEL_2_X 32
#define DIM_LOCAL_WORK_GROUP_KERNEL_2_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void lu_kernel1(ferry::KernelContext kc, DATA_TYPE *A, int k, int n) {
  int j = kc.x + (k + 1);
  if ((j < n))
    A[k * n + j] = A[k * n + j] / A[k * n + k];
}

FERRY_KERNEL void lu_kernel2(ferry::KernelContext kc, DATA_TYPE *A, int k, int n) {
  int j = kc.x + (k + 1);
  int i = kc.y + (k + 1);
  if ((i < n) && (j < n))
    A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
}

void init_array(int n, std::vector<DATA_TYPE> &A) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i * N + j] = ((DATA_TYPE)((i * j + 1) % 7) + (i == j ? (DATA_TYPE)N : 0.0f)) / N;
}

void cl_mem_init(std::vector<DATA_TYPE> &A, ferry::Buffer<DATA_TYPE> &a_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel1(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       int k, int n) {
  if (k < (_PB_N - 1)) {
    size_t localWorkSize[2], globalWorkSize[2];
    localWorkSize[0] = DIM_LOCAL_WORK_GROUP_KERNEL_1_X;
    localWorkSize[1] = DIM_LOCAL_WORK_GROUP_KERNEL_1_Y;
    globalWorkSize[0] = (size_t)std::ceil(((double)N - (double)(k + 1)) / 256.0) * 256;
    globalWorkSize[1] = 1;
    (void)localWorkSize;
    cc.dispatch(lu_kernel1, ferry::Range(globalWorkSize[0], globalWorkSize[1]),
                a_mem_obj, k, n);
  }
}

FERRY_COMPUTE void cl_launch_kernel2(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       int k, int n) {
  if (k < (_PB_N - 1)) {
    size_t localWorkSize[2], globalWorkSize[2];
    localWorkSize[0] = DIM_LOCAL_WORK_GROUP_KERNEL_2_X;
    localWorkSize[1] = DIM_LOCAL_WORK_GROUP_KERNEL_2_Y;
    globalWorkSize[0] = (size_t)std::ceil(((double)N - (double)(k + 1)) / 32.0) * 32;
    globalWorkSize[1] = (size_t)std::ceil(((double)N - (double)(k + 1)) / 8.0) * 8;
    (void)localWorkSize;
    cc.dispatch(lu_kernel2, ferry::Range(globalWorkSize[0], globalWorkSize[1]),
                a_mem_obj, k, n);
  }
}

int main(int argc, char *argv[]) {
  int n = argc > 1 ? std::atoi(argv[1]) : N;

  std::vector<DATA_TYPE> A(N * N), A_outputFromGpu(N * N);
  init_array(n, A);

  ferry::Buffer<DATA_TYPE> a_mem_obj(N * N);
  cl_mem_init(A, a_mem_obj);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    int k;
    for (k = 0; k < _PB_N; k++) {
      cl_launch_kernel1(cc, a_mem_obj, k, n);
      cl_launch_kernel2(cc, a_mem_obj, k, n);
    }
  });

  std::copy(a_mem_obj.begin(), a_mem_obj.end(), A_outputFromGpu.begin());

  std::printf("lu %d\n", n);
  printApprox("A", A_outputFromGpu.data(), A_outputFromGpu.size());
  return 0;
}
