// PolyBench-ACC convolution-2d, OpenCL version, written anew in Ferry's
// dialect. Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/stencils/convolution-2d/2DConvolution.c (host) and
// 2DConvolution.cl (Convolution2D_kernel).
//
// A 3 x 3 convolution of A into the interior of B. As in the original,
// cl_mem_init copies only A into its buffer, cl_launch_kernel() dispatches
// the kernel over a 2-D range rounded up to 32 x 8, and main reads B back
// into B_outputFromGpu. The original's buffers are globals; Ferry rejects
// those (findings/global_buffer_pointer.cpp), so main owns them.
//
//   convolution-2d [n]      (NI = NJ = n, at most 64)
//
// Bytes the ORIGINAL host code moves at 64 (a matrix 64*64*4 = 16384 B):
//   clEnqueueWriteBuffer A 16384;  clEnqueueReadBuffer B 16384
//   in 1 (16384 B), out 1 (16384 B). (The original never writes B, so its
//   boundary comes back as whatever the device buffer held.)
// Whole-buffer optimum: the kernel reads A (host-written): in (1). It writes
// only B's interior, and the host reads all of B afterwards, so the
// boundary must be the host's (zero): B in (1). Out: B (1).
//   in 2 (32768 B), out 1 (16384 B), 1 dispatch.
// suite-original: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// Ferry: B has not been written on the host since it was made (zero), so
// its copy in is a fill on the device: in 1 (A), fills 1 (B).
// ferry-test: to_device 2 to_device_bytes 32768 from_device 1 from_device_bytes 16384
// ferry-test: fills 1 fill_bytes 16384
// ferry-test: dispatches 1
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NI 64
#define NJ 64
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void Convolution2D_kernel(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *B,
                                       int ni, int nj) {
  int j = kc.x;
  int i = kc.y;
  DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;
  c11 = +0.2f;  c21 = +0.5f;  c31 = -0.8f;
  c12 = -0.3f;  c22 = +0.6f;  c32 = -0.9f;
  c13 = +0.4f;  c23 = +0.7f;  c33 = +0.10f;
  if ((i < (ni - 1)) && (j < (nj - 1)) && (i > 0) && (j > 0)) {
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] +
                    c31 * A[(i - 1) * nj + (j + 1)] + c12 * A[(i + 0) * nj + (j - 1)] +
                    c22 * A[(i + 0) * nj + (j + 0)] + c32 * A[(i + 0) * nj + (j + 1)] +
                    c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + (j + 0)] +
                    c33 * A[(i + 1) * nj + (j + 1)];
  }
}

void init(int ni, int nj, std::vector<DATA_TYPE> &A) {
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j)
      A[i * NJ + j] = (DATA_TYPE)((i * 7 + j * 3) % 10);
}

void cl_mem_init(std::vector<DATA_TYPE> &A, ferry::Buffer<DATA_TYPE> &a_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int ni, int nj,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &b_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NJ) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(Convolution2D_kernel, ferry::Range(globalWorkSize[0], globalWorkSize[1]),
              a_mem_obj, b_mem_obj, ni, nj);
}

int main(int argc, char *argv[]) {
  int ni = argc > 1 ? std::atoi(argv[1]) : NI;
  int nj = ni;
  std::vector<DATA_TYPE> A(NI * NJ), B_outputFromGpu(NI * NJ);
  init(ni, nj, A);

  ferry::Buffer<DATA_TYPE> a_mem_obj(NI * NJ), b_mem_obj(NI * NJ);
  cl_mem_init(A, a_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, ni, nj, a_mem_obj, b_mem_obj);
  });
  std::copy(b_mem_obj.begin(), b_mem_obj.end(), B_outputFromGpu.begin());

  std::printf("convolution-2d %d\n", ni);
  printApprox("B", B_outputFromGpu.data(), B_outputFromGpu.size());
  return 0;
}
