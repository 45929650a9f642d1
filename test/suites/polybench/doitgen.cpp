// PolyBench-ACC doitgen, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/doitgen/doitgen.c (host) and doitgen.cl
// (doitgen_kernel1/2).
//
// For each r: sum[r] = A[r] * C4, then A[r] = sum[r]. As in the original,
// cl_mem_init copies A, C4 and sum into their buffers, a loop over r calls
// the launch wrappers cl_launch_kernel1 and cl_launch_kernel2 (2-D ranges
// rounded up to 32 x 8), and main reads sum back into sum_outputFromGpu.
// The original's r loop is in main; Ferry dispatches only from compute
// functions (lu.cpp shows what marking the wrappers FERRY_COMPUTE costs), so
// here the loop sits in a compute function, run_doitgen. The original's
// buffers are globals; Ferry rejects those
// (findings/global_buffer_pointer.cpp), so main owns them. Small integer
// inputs: every sum is exact.
//
//   doitgen [n]      (NR = NQ = NP = n, at most 16)
//
// Bytes the ORIGINAL host code moves at 16 (A, sum 16*16*16*4 = 16384 B,
// C4 16*16*4 = 1024 B):
//   clEnqueueWriteBuffer A 16384, C4 1024, sum 16384 = 33792
//   clEnqueueReadBuffer  sum 16384
//   in 3 (33792 B), out 1 (16384 B).
// Dispatches: 2 per r: 32.
// Whole-buffer optimum: kernel1 reads A and C4 (host-written): in (2). sum
// is zeroed at [r][q][p] before it is accumulated there, plane r by the r-th
// dispatch, and the r loop writes every plane: no element of sum is read
// before the device writes it, and the host reads only elements the device
// wrote: no copy in. The host reads sum: out (1); it never reads A.
//   in 2 (17408 B), out 1 (16384 B), 32 dispatches.
// optimum: to_device 2 to_device_bytes 17408 from_device 1 from_device_bytes 16384
// suite-original: to_device 3 to_device_bytes 33792 from_device 1 from_device_bytes 16384
// ferry-test: args 16
// Ferry: in 3 (33792 B), the original's bytes, one over the optimum: sum is
// copied in (host-written by cl_mem_init), since each dispatch of the
// r-loop writes one plane, and a loop of dispatches covering a buffer
// plane by plane is no coverage form Ferry proves (docs/limitations.md).
// ferry-test: to_device 3 to_device_bytes 33792 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 32
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NR 16
#define NQ 16
#define NP 16
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void doitgen_kernel1(ferry::KernelContext kc, int /*nr*/, int nq, int np,
                                  DATA_TYPE *A, DATA_TYPE *C4, DATA_TYPE *sum, int r) {
  int p = kc.x;
  int q = kc.y;
  if ((p < np) && (q < nq)) {
    sum[r * (nq * np) + q * np + p] = (DATA_TYPE)0.0;
    for (int s = 0; s < np; s++)
      sum[r * (nq * np) + q * np + p] =
          sum[r * (nq * np) + q * np + p] + A[r * (nq * np) + q * np + s] * C4[s * np + p];
  }
}

FERRY_KERNEL void doitgen_kernel2(ferry::KernelContext kc, int /*nr*/, int nq, int np,
                                  DATA_TYPE *A, DATA_TYPE * /*C4*/, DATA_TYPE *sum, int r) {
  int p = kc.x;
  int q = kc.y;
  if ((p < np) && (q < nq))
    A[r * (nq * np) + q * np + p] = sum[r * (nq * np) + q * np + p];
}

void init_array(int nr, int nq, int np, std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &C4) {
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nq; j++)
      for (int k = 0; k < np; k++)
        A[(i * NQ + j) * NP + k] = (DATA_TYPE)((i * j + k) % 5 - 2);
  for (int i = 0; i < np; i++)
    for (int j = 0; j < np; j++)
      C4[i * NP + j] = (DATA_TYPE)((i * j) % 7 - 3);
}

void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &C4,
                 std::vector<DATA_TYPE> &sum, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(C4.begin(), C4.end(), b_mem_obj.begin());
  std::copy(sum.begin(), sum.end(), c_mem_obj.begin());
}

void cl_launch_kernel1(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj,
                       int nr, int nq, int np, int r) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NP) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NQ) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(doitgen_kernel1, ferry::Range(globalWorkSize[0], globalWorkSize[1]), nr, nq, np,
              a_mem_obj, b_mem_obj, c_mem_obj, r);
}

void cl_launch_kernel2(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj,
                       int nr, int nq, int np, int r) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NP) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NQ) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(doitgen_kernel2, ferry::Range(globalWorkSize[0], globalWorkSize[1]), nr, nq, np,
              a_mem_obj, b_mem_obj, c_mem_obj, r);
}

FERRY_COMPUTE void run_doitgen(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                               ferry::Buffer<DATA_TYPE> &b_mem_obj,
                               ferry::Buffer<DATA_TYPE> &c_mem_obj, int nr, int nq, int np) {
  int r;
  for (r = 0; r < nr; r++) {
    cl_launch_kernel1(cc, a_mem_obj, b_mem_obj, c_mem_obj, nr, nq, np, r);
    cl_launch_kernel2(cc, a_mem_obj, b_mem_obj, c_mem_obj, nr, nq, np, r);
  }
}

int main(int argc, char *argv[]) {
  int nr = argc > 1 ? std::atoi(argv[1]) : NR;
  int nq = nr, np = nr;
  std::vector<DATA_TYPE> A(NR * NQ * NP), sum(NR * NQ * NP), sum_outputFromGpu(NR * NQ * NP),
      C4(NP * NP);
  init_array(nr, nq, np, A, C4);

  ferry::Buffer<DATA_TYPE> a_mem_obj(NR * NQ * NP), b_mem_obj(NP * NP), c_mem_obj(NR * NQ * NP);
  cl_mem_init(A, C4, sum, a_mem_obj, b_mem_obj, c_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run_doitgen(cc, a_mem_obj, b_mem_obj, c_mem_obj, nr, nq, np);
  });
  std::copy(c_mem_obj.begin(), c_mem_obj.end(), sum_outputFromGpu.begin());

  std::printf("doitgen %d\n", nr);
  printApprox("sum", sum_outputFromGpu.data(), sum_outputFromGpu.size());
  return 0;
}
