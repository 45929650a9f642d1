// PolyBench-ACC gesummv, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/gesummv/gesummv.c (host) and gesummv.cl
// (gesummv_kernel).
//
// y = alpha A x + beta B x, with tmp and y accumulated by += in the kernel.
// As in the original, cl_mem_init copies A, B, x, y and tmp into their
// buffers (y and tmp are uninitialised host arrays there, zero here),
// cl_launch_kernel() dispatches the kernel over a 1-D range rounded up to 256,
// and main reads y back. The original's buffers are globals; Ferry rejects
// those (findings/global_buffer_pointer.cpp), so main owns them. Small
// integer inputs: every sum is exact.
//
//   gesummv [n]      (at most N = 64)
//
// Bytes the ORIGINAL host code moves at 64 (a matrix 16384 B, a vector 256 B):
//   clEnqueueWriteBuffer A, B 2 x 16384, x, y, tmp 3 x 256 = 33536
//   clEnqueueReadBuffer  y 256
//   in 5 (33536 B), out 1 (256 B).
// Whole-buffer optimum: the kernel reads A, B, x and (through +=) y and tmp,
// all host-written: in (5). The host reads only y: out (1).
//   in 5 (33536 B), out 1 (256 B), 1 dispatch: equal to the original.
// suite-original: to_device 5 to_device_bytes 33536 from_device 1 from_device_bytes 256
// ferry-test: args 64
// ferry-test: to_device 5 to_device_bytes 33536 from_device 1 from_device_bytes 256
// ferry-test: dispatches 1
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define N 64
#define DIM_LOCAL_WORK_GROUP_X 256
#define DIM_LOCAL_WORK_GROUP_Y 1

typedef float DATA_TYPE;

FERRY_KERNEL void gesummv_kernel(ferry::KernelContext kc, DATA_TYPE *a, DATA_TYPE *b,
                                 DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp,
                                 DATA_TYPE alpha, DATA_TYPE beta, int n) {
  int i = kc.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

void init_array(int n, DATA_TYPE *alpha, DATA_TYPE *beta, std::vector<DATA_TYPE> &A,
                std::vector<DATA_TYPE> &B, std::vector<DATA_TYPE> &x) {
  *alpha = 3;
  *beta = 2;
  for (int i = 0; i < n; i++) {
    x[i] = (DATA_TYPE)(i % 5 - 2);
    for (int j = 0; j < n; j++) {
      A[i * N + j] = (DATA_TYPE)((i * j + 1) % 5 - 2);
      B[i * N + j] = (DATA_TYPE)((i * j + 2) % 7 - 3);
    }
  }
}

void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                 std::vector<DATA_TYPE> &x, std::vector<DATA_TYPE> &y,
                 std::vector<DATA_TYPE> &tmp, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &x_mem_obj,
                 ferry::Buffer<DATA_TYPE> &y_mem_obj, ferry::Buffer<DATA_TYPE> &tmp_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(B.begin(), B.end(), b_mem_obj.begin());
  std::copy(x.begin(), x.end(), x_mem_obj.begin());
  std::copy(y.begin(), y.end(), y_mem_obj.begin());
  std::copy(tmp.begin(), tmp.end(), tmp_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int n, DATA_TYPE alpha,
                                    DATA_TYPE beta, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &b_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &x_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &y_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &tmp_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)N) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)N) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  (void)globalWorkSize[1];
  cc.dispatch(gesummv_kernel, ferry::Range(globalWorkSize[0]), a_mem_obj, b_mem_obj, x_mem_obj,
              y_mem_obj, tmp_mem_obj, alpha, beta, n);
}

int main(int argc, char *argv[]) {
  int n = argc > 1 ? std::atoi(argv[1]) : N;
  DATA_TYPE alpha, beta;
  std::vector<DATA_TYPE> A(N * N), B(N * N), tmp(N), x(N), y(N), y_outputFromGpu(N);
  init_array(n, &alpha, &beta, A, B, x);

  ferry::Buffer<DATA_TYPE> a_mem_obj(N * N), b_mem_obj(N * N), x_mem_obj(N), y_mem_obj(N),
      tmp_mem_obj(N);
  cl_mem_init(A, B, x, y, tmp, a_mem_obj, b_mem_obj, x_mem_obj, y_mem_obj, tmp_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, n, alpha, beta, a_mem_obj, b_mem_obj, x_mem_obj, y_mem_obj,
                     tmp_mem_obj);
  });
  std::copy(y_mem_obj.begin(), y_mem_obj.end(), y_outputFromGpu.begin());

  std::printf("gesummv %d\n", n);
  printApprox("y", y_outputFromGpu.data(), y_outputFromGpu.size());
  return 0;
}
