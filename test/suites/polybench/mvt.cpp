// PolyBench-ACC mvt, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/mvt/mvt.c (host) and mvt.cl
// (mvt_kernel1, mvt_kernel2).
//
// x1 += A y1, x2 += A^T y2. As in the original, cl_mem_init copies a, x1,
// x2, y_1, y_2 into their buffers, cl_launch_kernel() dispatches both kernels
// over the same 1-D range rounded up to 32, and main reads x1 and x2 back.
// The original's buffers are globals; Ferry rejects those
// (findings/global_buffer_pointer.cpp), so main owns them. Small integer
// inputs: every sum is exact.
//
//   mvt [n]      (at most N = 64)
//
// Bytes the ORIGINAL host code moves at 64 (a 16384 B, a vector 256 B):
//   clEnqueueWriteBuffer a 16384, x1, x2, y1, y2 4 x 256 = 17408
//   clEnqueueReadBuffer  x1 256, x2 256
//   in 5 (17408 B), out 2 (512 B).
// Whole-buffer optimum: the kernels read a, y1, y2 and (through +=) x1, x2,
// all host-written: in (5). The host reads x1 and x2: out (2).
//   in 5 (17408 B), out 2 (512 B), 2 dispatches: equal to the original.
// suite-original: to_device 5 to_device_bytes 17408 from_device 2 from_device_bytes 512
// ferry-test: args 64
// ferry-test: to_device 5 to_device_bytes 17408 from_device 2 from_device_bytes 512
// ferry-test: dispatches 2
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define N 64
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void mvt_kernel1(ferry::KernelContext kc, DATA_TYPE *a, DATA_TYPE *x1,
                              DATA_TYPE *y1, int n) {
  int i = kc.x;
  if (i < n) {
    for (int j = 0; j < n; j++)
      x1[i] += a[i * n + j] * y1[j];
  }
}

FERRY_KERNEL void mvt_kernel2(ferry::KernelContext kc, DATA_TYPE *a, DATA_TYPE *x2,
                              DATA_TYPE *y2, int n) {
  int i = kc.x;
  if (i < n) {
    for (int j = 0; j < n; j++)
      x2[i] += a[j * n + i] * y2[j];
  }
}

void init_array(int n, std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &x1,
                std::vector<DATA_TYPE> &x2, std::vector<DATA_TYPE> &y1,
                std::vector<DATA_TYPE> &y2) {
  for (int i = 0; i < n; i++) {
    x1[i] = (DATA_TYPE)(i % 3);
    x2[i] = (DATA_TYPE)((i + 1) % 3);
    y1[i] = (DATA_TYPE)((i + 3) % 5 - 2);
    y2[i] = (DATA_TYPE)((i + 4) % 5 - 2);
    for (int j = 0; j < n; j++)
      A[i * N + j] = (DATA_TYPE)((i * j) % 5 - 2);
  }
}

void cl_mem_init(std::vector<DATA_TYPE> &a, std::vector<DATA_TYPE> &x1,
                 std::vector<DATA_TYPE> &x2, std::vector<DATA_TYPE> &y_1,
                 std::vector<DATA_TYPE> &y_2, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &x1_mem_obj, ferry::Buffer<DATA_TYPE> &x2_mem_obj,
                 ferry::Buffer<DATA_TYPE> &y1_mem_obj, ferry::Buffer<DATA_TYPE> &y2_mem_obj) {
  std::copy(a.begin(), a.end(), a_mem_obj.begin());
  std::copy(x1.begin(), x1.end(), x1_mem_obj.begin());
  std::copy(x2.begin(), x2.end(), x2_mem_obj.begin());
  std::copy(y_1.begin(), y_1.end(), y1_mem_obj.begin());
  std::copy(y_2.begin(), y_2.end(), y2_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int n,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &x1_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &x2_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &y1_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &y2_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)N) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = 1;
  cc.dispatch(mvt_kernel1, ferry::Range(globalWorkSize[0]), a_mem_obj, x1_mem_obj, y1_mem_obj, n);
  cc.dispatch(mvt_kernel2, ferry::Range(globalWorkSize[0]), a_mem_obj, x2_mem_obj, y2_mem_obj, n);
}

int main(int argc, char *argv[]) {
  int n = argc > 1 ? std::atoi(argv[1]) : N;
  std::vector<DATA_TYPE> a(N * N), x1(N), x2(N), x1_outputFromGpu(N), x2_outputFromGpu(N),
      y_1(N), y_2(N);
  init_array(n, a, x1, x2, y_1, y_2);

  ferry::Buffer<DATA_TYPE> a_mem_obj(N * N), x1_mem_obj(N), x2_mem_obj(N), y1_mem_obj(N),
      y2_mem_obj(N);
  cl_mem_init(a, x1, x2, y_1, y_2, a_mem_obj, x1_mem_obj, x2_mem_obj, y1_mem_obj, y2_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, n, a_mem_obj, x1_mem_obj, x2_mem_obj, y1_mem_obj, y2_mem_obj);
  });
  std::copy(x1_mem_obj.begin(), x1_mem_obj.end(), x1_outputFromGpu.begin());
  std::copy(x2_mem_obj.begin(), x2_mem_obj.end(), x2_outputFromGpu.begin());

  std::printf("mvt %d\n", n);
  printApprox("x1", x1_outputFromGpu.data(), x1_outputFromGpu.size());
  printApprox("x2", x2_outputFromGpu.data(), x2_outputFromGpu.size());
  return 0;
}
