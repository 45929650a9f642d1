// PolyBench-ACC gramschmidt, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/solvers/gramschmidt/gramschmidt.c (host) and
// gramschmidt.cl (gramschmidt_kernel1/2/3).
//
// The original keeps its device buffers in globals (a_mem_obj, r_mem_obj,
// q_mem_obj); Ferry rejects a buffer reached through a global (see
// findings/global_buffer_pointer.cpp), so here main owns them and passes
// them to cl_mem_init and cl_launch_kernel. As in the original, the host
// arrays A, R, Q are separate and only A is copied into a_mem_obj; R and Q
// are initialised on the host but never sent (the original never writes
// r_mem_obj / q_mem_obj from the host: they start uninitialised, here zero).
// cl_launch_kernel() loops over k and dispatches kernel1 (one work-item of a
// 256-wide range computes the column norm), kernel2 (normalise column k) and
// kernel3 (project the remaining columns) only when its rounded-up range is
// > 1. All three get a, r and q as the original passes them. A is read back
// into A_outputFromGpu after the loop, as the original does. The original's
// input (A[i][j] = i*j/ni) has a zero first column and turns everything into
// NaN (0/0); here a diagonally dominant matrix of small integers instead.
//
//   gramschmidt [ni nj]      (at most NI x NJ = 32 x 32)
//
// Bytes the ORIGINAL host code moves at 32 x 32 (floats, 32*32*4 = 4096 B):
//   cl_mem_init: clEnqueueWriteBuffer a_mem_obj  NI*NJ*4 = 4096
//   main:        clEnqueueReadBuffer  a_mem_obj  NI*NJ*4 = 4096
//   (r_mem_obj, q_mem_obj: never written nor read by the host)
//   in 1 (4096 B), out 1 (4096 B).
// Dispatches: kernel1 and kernel2 for k = 0..31 (64), kernel3 when
// ceil((NJ-(k+1))/256)*256 > 1, i.e. k = 0..30 (31): 95.
// Whole-buffer optimum of this port: kernel1 reads a (host-written by
// std::copy in cl_mem_init): in (1). r: kernel1 writes r[k][k], kernel2
// reads only that element, kernel3 zeroes r[k][j] then accumulates into
// it: every element of r read by a kernel was written by the device first,
// so no copy in. q: kernel2 writes q[i][k] before kernel3 reads it: no copy
// in. The host then reads a (std::copy into A_outputFromGpu): out (1); it
// never reads r or q: no copy out.
//   in 1 (4096 B), out 1 (4096 B), 95 dispatches: equal to the original.
// optimum: to_device 1 to_device_bytes 4096 from_device 1 from_device_bytes 4096
// suite-original: to_device 1 to_device_bytes 4096 from_device 1 from_device_bytes 4096
// ferry-test: args 32 32
// Ferry: r and q, never written on the host, are filled on the device (zero)
// instead of copied: in 1 (a), fills 2.
// (to_device counts the fills with the copies.)
// ferry-test: to_device 3 to_device_bytes 12288 from_device 1 from_device_bytes 4096
// ferry-test: fills 2 fill_bytes 8192
// ferry-test: dispatches 95
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NI 32
#define NJ 32
#define _PB_NI ni
#define _PB_NJ nj
#define DIM_LOCAL_WORK_GROUP_X 256
#define DIM_LOCAL_WORK_GROUP_Y 1

typedef float DATA_TYPE;

FERRY_KERNEL void gramschmidt_kernel1(ferry::KernelContext kc, DATA_TYPE *a,
                                      DATA_TYPE *r, DATA_TYPE * /*q*/, int k, int ni,
                                      int nj) {
  int tid = kc.x;
  if (tid == 0) {
    DATA_TYPE nrm = 0.0f;
    for (int i = 0; i < ni; i++)
      nrm += a[i * nj + k] * a[i * nj + k];
    r[k * nj + k] = std::sqrt(nrm);
  }
}

FERRY_KERNEL void gramschmidt_kernel2(ferry::KernelContext kc, DATA_TYPE *a,
                                      DATA_TYPE *r, DATA_TYPE *q, int k, int ni,
                                      int nj) {
  int i = kc.x;
  if (i < ni)
    q[i * nj + k] = a[i * nj + k] / r[k * nj + k];
}

FERRY_KERNEL void gramschmidt_kernel3(ferry::KernelContext kc, DATA_TYPE *a,
                                      DATA_TYPE *r, DATA_TYPE *q, int k, int ni,
                                      int nj) {
  int j = kc.x + (k + 1);
  if (j < nj) {
    r[k * nj + j] = 0.0f;
    for (int i = 0; i < ni; i++)
      r[k * nj + j] += q[i * nj + k] * a[i * nj + j];
    for (int i = 0; i < ni; i++)
      a[i * nj + j] -= q[i * nj + k] * r[k * nj + j];
  }
}

void init_array(int ni, int nj, std::vector<DATA_TYPE> &A,
                std::vector<DATA_TYPE> &R, std::vector<DATA_TYPE> &Q) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++) {
      A[i * NJ + j] = (DATA_TYPE)(((i + 1) * (j + 2)) % 7 + (i == j ? 16 : 0));
      Q[i * NJ + j] = ((DATA_TYPE)i * (j + 1)) / nj;
    }
  }
  for (int i = 0; i < nj; i++)
    for (int j = 0; j < nj; j++)
      R[i * NJ + j] = ((DATA_TYPE)i * (j + 2)) / nj;
}

void cl_mem_init(const std::vector<DATA_TYPE> &A,
                 ferry::Buffer<DATA_TYPE> *a_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj->begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int ni, int nj,
                                    ferry::Buffer<DATA_TYPE> *a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> *r_mem_obj,
                                    ferry::Buffer<DATA_TYPE> *q_mem_obj) {
  size_t globalWorkSizeKernel1[2], globalWorkSizeKernel2[2],
      globalWorkSizeKernel3[2];
  globalWorkSizeKernel1[0] = DIM_LOCAL_WORK_GROUP_X;
  globalWorkSizeKernel1[1] = DIM_LOCAL_WORK_GROUP_Y;
  globalWorkSizeKernel2[0] =
      (size_t)std::ceil(((float)NJ) / ((float)DIM_LOCAL_WORK_GROUP_X)) *
      DIM_LOCAL_WORK_GROUP_X;
  globalWorkSizeKernel2[1] = 1;
  globalWorkSizeKernel3[0] =
      (size_t)std::ceil(((float)NJ) / ((float)DIM_LOCAL_WORK_GROUP_X)) *
      DIM_LOCAL_WORK_GROUP_X;
  globalWorkSizeKernel3[1] = 1;

  int k;
  for (k = 0; k < _PB_NJ; k++) {
    cc.dispatch(gramschmidt_kernel1, ferry::Range(globalWorkSizeKernel1[0]),
                *a_mem_obj, *r_mem_obj, *q_mem_obj, k, ni, nj);
    cc.dispatch(gramschmidt_kernel2, ferry::Range(globalWorkSizeKernel2[0]),
                *a_mem_obj, *r_mem_obj, *q_mem_obj, k, ni, nj);
    globalWorkSizeKernel3[0] =
        (size_t)std::ceil(((float)NJ - (float)(k + 1)) /
                          ((float)DIM_LOCAL_WORK_GROUP_X)) *
        DIM_LOCAL_WORK_GROUP_X;
    if (globalWorkSizeKernel3[0] > 1) {
      cc.dispatch(gramschmidt_kernel3, ferry::Range(globalWorkSizeKernel3[0]),
                  *a_mem_obj, *r_mem_obj, *q_mem_obj, k, ni, nj);
    }
  }
}

int main(int argc, char *argv[]) {
  int ni = argc > 1 ? std::atoi(argv[1]) : NI;
  int nj = argc > 2 ? std::atoi(argv[2]) : NJ;

  std::vector<DATA_TYPE> A(NI * NJ), A_outputFromGpu(NI * NJ), R(NJ * NJ),
      Q(NI * NJ);
  init_array(ni, nj, A, R, Q);

  ferry::Buffer<DATA_TYPE> a_mem_obj(NI * NJ), r_mem_obj(NI * NJ),
      q_mem_obj(NI * NJ);
  cl_mem_init(A, &a_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, ni, nj, &a_mem_obj, &r_mem_obj, &q_mem_obj);
  });

  std::copy(a_mem_obj.begin(), a_mem_obj.end(), A_outputFromGpu.begin());

  std::printf("gramschmidt %dx%d\n", ni, nj);
  printApprox("A", A_outputFromGpu.data(), A_outputFromGpu.size());
  return 0;
}
