// PolyBench-ACC correlation, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/datamining/correlation/correlation.c (host) and correlation.cl
// (mean_kernel, std_kernel, reduce_kernel, corr_kernel).
//
// As in the original, cl_mem_init copies data, symmat (the uninitialised
// symmat_outputFromGpu there, zero here), stddev and mean into their buffers;
// cl_launch_kernel() dispatches the four kernels (1-D ranges rounded up to
// 256, reduce_kernel 2-D rounded up to 32 x 8) and then, still inside the
// launch wrapper, the host writes the single element symmat[M-1][M-1] = 1.0
// (the original's one-element clEnqueueWriteBuffer); main reads symmat back.
// The original's buffers are globals; Ferry rejects those
// (findings/global_buffer_pointer.cpp), so main owns them. FLOAT_N is the
// row count here (the original's 3214212.01 scales everything to ~0).
//
//   correlation [n]      (M = N = n, at most 32)
//
// Bytes the ORIGINAL host code moves at 32 (data/symmat 32*32*4 = 4096 B,
// mean/stddev 128 B):
//   cl_mem_init: clEnqueueWriteBuffer data 4096, symmat 4096, stddev 128,
//                mean 128
//   cl_launch_kernel: clEnqueueWriteBuffer symmat, one element: 4
//   main: clEnqueueReadBuffer symmat 4096
//   in 5 (8452 B), out 1 (4096 B).
// Whole-buffer optimum: mean_kernel reads data (host-written): in (1);
// mean[j] and std[j] are zeroed then accumulated at the work-item's index:
// no copy in. corr_kernel accumulates into symmat[j1][j2] (+=) without
// zeroing: symmat (host-written) in (1). The host then writes one element
// of symmat, whose latest copy is on the device: out (1) before it; after
// it the host copy is current and main reads it with no further copy. The
// host never reads data, mean, stddev.
//   in 2 (8192 B), out 1 (4096 B), 4 dispatches.
// optimum: to_device 2 to_device_bytes 8192 from_device 1 from_device_bytes 4096
// Ferry moves less than this optimum: the host's write of
// symmat[M-1][M-1] covers that one element, so nothing comes back before
// it (cc.hostWrites(symmat, 1023, 1)), and the launch wrapper's return
// brings back the other 1023 elements, one piece of 4092 B. Ferry beats
// the original: in 8192 of its 8452 B, out 4092 of its 4096 B.
// suite-original: to_device 5 to_device_bytes 8452 from_device 1 from_device_bytes 4096
// ferry-test: args 32
// ferry-test: to_device 2 to_device_bytes 8192 from_device 1 from_device_bytes 4092
// ferry-test: dispatches 4
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define M 32
#define N 32
#define FLOAT_N 32.0f
#define EPS 0.005f
#define DIM_LOCAL_WORK_GROUP_KERNEL_1_X 256
#define DIM_LOCAL_WORK_GROUP_KERNEL_2_X 256
#define DIM_LOCAL_WORK_GROUP_KERNEL_3_X 32
#define DIM_LOCAL_WORK_GROUP_KERNEL_3_Y 8
#define DIM_LOCAL_WORK_GROUP_KERNEL_4_X 256

typedef float DATA_TYPE;

FERRY_KERNEL void mean_kernel(ferry::KernelContext kc, DATA_TYPE *mean, DATA_TYPE *data,
                              DATA_TYPE float_n, int m, int n) {
  int j = kc.x;
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; i++)
      mean[j] += data[i * m + j];
    mean[j] /= (DATA_TYPE)float_n;
  }
}

FERRY_KERNEL void std_kernel(ferry::KernelContext kc, DATA_TYPE *mean, DATA_TYPE *std,
                             DATA_TYPE *data, DATA_TYPE float_n, DATA_TYPE eps, int m, int n) {
  int j = kc.x;
  if (j < m) {
    std[j] = 0.0f;
    for (int i = 0; i < n; i++)
      std[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    std[j] /= float_n;
    std[j] = std::sqrt(std[j]);
    if (std[j] <= eps)
      std[j] = 1.0f;
  }
}

FERRY_KERNEL void reduce_kernel(ferry::KernelContext kc, DATA_TYPE *mean, DATA_TYPE *std,
                                DATA_TYPE *data, DATA_TYPE float_n, int m, int n) {
  int j = kc.x;
  int i = kc.y;
  if ((i < n) && (j < m)) {
    data[i * m + j] -= mean[j];
    data[i * m + j] /= (std::sqrt(float_n) * std[j]);
  }
}

FERRY_KERNEL void corr_kernel(ferry::KernelContext kc, DATA_TYPE *symmat, DATA_TYPE *data,
                              int m, int n) {
  int j1 = kc.x;
  if (j1 < (m - 1)) {
    symmat[j1 * m + j1] = 1.0f;
    for (int j2 = (j1 + 1); j2 < m; j2++) {
      for (int i = 0; i < n; i++)
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}

void init_arrays(int m, int n, std::vector<DATA_TYPE> &data) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      data[i * M + j] = (DATA_TYPE)((i * (j + 1) + j) % 11) + (DATA_TYPE)(i % 3) * j;
}

void cl_mem_init(std::vector<DATA_TYPE> &data, std::vector<DATA_TYPE> &mean,
                 std::vector<DATA_TYPE> &stddev, std::vector<DATA_TYPE> &symmat,
                 ferry::Buffer<DATA_TYPE> &data_mem_obj, ferry::Buffer<DATA_TYPE> &symmat_mem_obj,
                 ferry::Buffer<DATA_TYPE> &stddev_mem_obj, ferry::Buffer<DATA_TYPE> &mean_mem_obj) {
  std::copy(data.begin(), data.end(), data_mem_obj.begin());
  std::copy(symmat.begin(), symmat.end(), symmat_mem_obj.begin());
  std::copy(stddev.begin(), stddev.end(), stddev_mem_obj.begin());
  std::copy(mean.begin(), mean.end(), mean_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int m, int n,
                                    ferry::Buffer<DATA_TYPE> &data_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &symmat_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &stddev_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &mean_mem_obj) {
  DATA_TYPE float_n = FLOAT_N;
  DATA_TYPE eps = EPS;
  size_t globalWorkSize_Kernel1[2], globalWorkSize_Kernel2[2], globalWorkSize_Kernel3[2],
      globalWorkSize_Kernel4[2];
  globalWorkSize_Kernel1[0] = (size_t)std::ceil(((float)M) / ((float)DIM_LOCAL_WORK_GROUP_KERNEL_1_X)) * DIM_LOCAL_WORK_GROUP_KERNEL_1_X;
  globalWorkSize_Kernel1[1] = 1;
  globalWorkSize_Kernel2[0] = (size_t)std::ceil(((float)M) / ((float)DIM_LOCAL_WORK_GROUP_KERNEL_2_X)) * DIM_LOCAL_WORK_GROUP_KERNEL_2_X;
  globalWorkSize_Kernel2[1] = 1;
  globalWorkSize_Kernel3[0] = (size_t)std::ceil(((float)M) / ((float)DIM_LOCAL_WORK_GROUP_KERNEL_3_X)) * DIM_LOCAL_WORK_GROUP_KERNEL_3_X;
  globalWorkSize_Kernel3[1] = (size_t)std::ceil(((float)N) / ((float)DIM_LOCAL_WORK_GROUP_KERNEL_3_Y)) * DIM_LOCAL_WORK_GROUP_KERNEL_3_Y;
  globalWorkSize_Kernel4[0] = (size_t)std::ceil(((float)M) / ((float)DIM_LOCAL_WORK_GROUP_KERNEL_4_X)) * DIM_LOCAL_WORK_GROUP_KERNEL_4_X;
  globalWorkSize_Kernel4[1] = 1;

  cc.dispatch(mean_kernel, ferry::Range(globalWorkSize_Kernel1[0]), mean_mem_obj, data_mem_obj,
              float_n, m, n);
  cc.dispatch(std_kernel, ferry::Range(globalWorkSize_Kernel2[0]), mean_mem_obj,
              stddev_mem_obj, data_mem_obj, float_n, eps, m, n);
  cc.dispatch(reduce_kernel, ferry::Range(globalWorkSize_Kernel3[0], globalWorkSize_Kernel3[1]),
              mean_mem_obj, stddev_mem_obj, data_mem_obj, float_n, m, n);
  cc.dispatch(corr_kernel, ferry::Range(globalWorkSize_Kernel4[0]), symmat_mem_obj,
              data_mem_obj, m, n);

  DATA_TYPE val = 1.0f;
  symmat_mem_obj[(M - 1) * M + (M - 1)] = val;
}

int main(int argc, char *argv[]) {
  int m = argc > 1 ? std::atoi(argv[1]) : M;
  int n = m;
  std::vector<DATA_TYPE> data(M * N), mean(M), stddev(M), symmat(M * N),
      symmat_outputFromGpu(M * N);
  init_arrays(m, n, data);

  ferry::Buffer<DATA_TYPE> data_mem_obj(M * N), symmat_mem_obj(M * N), stddev_mem_obj(M),
      mean_mem_obj(M);
  cl_mem_init(data, mean, stddev, symmat_outputFromGpu, data_mem_obj, symmat_mem_obj,
              stddev_mem_obj, mean_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, m, n, data_mem_obj, symmat_mem_obj, stddev_mem_obj, mean_mem_obj);
  });
  std::copy(symmat_mem_obj.begin(), symmat_mem_obj.end(), symmat_outputFromGpu.begin());

  std::printf("correlation %d\n", m);
  printApprox("symmat", symmat_outputFromGpu.data(), symmat_outputFromGpu.size());
  return 0;
}
