// PolyBench-ACC atax, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/atax/atax.c (host) and atax.cl
// (atax_kernel1, atax_kernel2).
//
// y = A^T (A x) through tmp. As in the original, cl_mem_init copies A, x,
// y and tmp into their buffers (y and tmp are uninitialised host arrays
// there, zero here; both kernels accumulate with += into them),
// cl_launch_kernel() dispatches the two kernels over 1-D ranges rounded up to
// 32, and main reads y back into y_outputFromGpu. The original's buffers are
// globals; Ferry rejects those (findings/global_buffer_pointer.cpp), so main
// owns them. Small integer inputs: every sum is exact.
//
//   atax [n]      (NX = NY = n, at most 64)
//
// Bytes the ORIGINAL host code moves at 64 (A 64*64*4 = 16384 B, a vector 256 B):
//   clEnqueueWriteBuffer A 16384, x 256, y 256, tmp 256 = 17152
//   clEnqueueReadBuffer  y 256
//   in 4 (17152 B), out 1 (256 B).
// Whole-buffer optimum: kernel1 reads A, x and tmp (tmp[i] += ...), all
// host-written: in (3); kernel2 reads y (y[j] += ...), host-written: in (1).
// The host reads only y: out (1).
//   in 4 (17152 B), out 1 (256 B), 2 dispatches: equal to the original.
// suite-original: to_device 4 to_device_bytes 17152 from_device 1 from_device_bytes 256
// ferry-test: args 64
// ferry-test: to_device 4 to_device_bytes 17152 from_device 1 from_device_bytes 256
// ferry-test: dispatches 2
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NX 64
#define NY 64
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void atax_kernel1(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *x,
                               DATA_TYPE *tmp, int nx, int ny) {
  int i = kc.x;
  if (i < nx) {
    for (int j = 0; j < ny; j++)
      tmp[i] += A[i * ny + j] * x[j];
  }
}

FERRY_KERNEL void atax_kernel2(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *y,
                               DATA_TYPE *tmp, int nx, int ny) {
  int j = kc.x;
  if (j < ny) {
    for (int i = 0; i < nx; i++)
      y[j] += A[i * ny + j] * tmp[i];
  }
}

void init_array(int nx, int ny, std::vector<DATA_TYPE> &x, std::vector<DATA_TYPE> &A) {
  for (int i = 0; i < nx; i++) {
    x[i] = (DATA_TYPE)(i % 5 - 2);
    for (int j = 0; j < ny; j++)
      A[i * NY + j] = (DATA_TYPE)((i * (j + 1)) % 5 - 2);
  }
}

void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &x,
                 std::vector<DATA_TYPE> &y, std::vector<DATA_TYPE> &tmp,
                 ferry::Buffer<DATA_TYPE> &a_mem_obj, ferry::Buffer<DATA_TYPE> &x_mem_obj,
                 ferry::Buffer<DATA_TYPE> &y_mem_obj, ferry::Buffer<DATA_TYPE> &tmp_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(x.begin(), x.end(), x_mem_obj.begin());
  std::copy(y.begin(), y.end(), y_mem_obj.begin());
  std::copy(tmp.begin(), tmp.end(), tmp_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int nx, int ny,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &x_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &y_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &tmp_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NX) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = 1;
  cc.dispatch(atax_kernel1, ferry::Range(globalWorkSize[0]), a_mem_obj, x_mem_obj, tmp_mem_obj,
              nx, ny);
  globalWorkSize[0] = (size_t)std::ceil(((float)NY) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = 1;
  cc.dispatch(atax_kernel2, ferry::Range(globalWorkSize[0]), a_mem_obj, y_mem_obj, tmp_mem_obj,
              nx, ny);
}

int main(int argc, char *argv[]) {
  int nx = argc > 1 ? std::atoi(argv[1]) : NX;
  int ny = nx;
  std::vector<DATA_TYPE> A(NX * NY), x(NY), y(NY), y_outputFromGpu(NY), tmp(NX);
  init_array(nx, ny, x, A);

  ferry::Buffer<DATA_TYPE> a_mem_obj(NX * NY), x_mem_obj(NY), y_mem_obj(NY), tmp_mem_obj(NX);
  cl_mem_init(A, x, y, tmp, a_mem_obj, x_mem_obj, y_mem_obj, tmp_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, nx, ny, a_mem_obj, x_mem_obj, y_mem_obj, tmp_mem_obj);
  });
  std::copy(y_mem_obj.begin(), y_mem_obj.end(), y_outputFromGpu.begin());

  std::printf("atax %d\n", nx);
  printApprox("y", y_outputFromGpu.data(), y_outputFromGpu.size());
  return 0;
}
