// PolyBench-ACC bicg, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/bicg/bicg.c (host) and bicg.cl
// (bicgKernel1, bicgKernel2).
//
// q = A p and s = A^T r. As in the original, cl_mem_init copies A, r, s, p
// and q into their buffers (s and q are uninitialised host arrays there,
// zero here), cl_launch_kernel() dispatches the two kernels over 1-D ranges
// rounded up to 256, and main reads s and q back. The original's buffers are
// globals; Ferry rejects those (findings/global_buffer_pointer.cpp), so main
// owns them. Small integer inputs: every sum is exact.
//
//   bicg [n]      (NX = NY = n, at most 64)
//
// Bytes the ORIGINAL host code moves at 64 (A 16384 B, a vector 256 B):
//   clEnqueueWriteBuffer A 16384, r, s, p, q 4 x 256 = 17408
//   clEnqueueReadBuffer  s 256, q 256
//   in 5 (17408 B), out 2 (512 B).
// Whole-buffer optimum: kernel1 reads A and p, kernel2 reads r, all
// host-written: in (3). q[i] and s[j] are zeroed and then accumulated at the
// work-item's own index under `if (i < nx)`: covering writes, no copy in.
// The host reads s and q: out (2).
//   in 3 (16896 B), out 2 (512 B), 2 dispatches.
// suite-original: to_device 5 to_device_bytes 17408 from_device 2 from_device_bytes 512
// ferry-test: args 64
// ferry-test: to_device 3 to_device_bytes 16896 from_device 2 from_device_bytes 512
// ferry-test: dispatches 2
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NX 64
#define NY 64
#define DIM_LOCAL_WORK_GROUP_X 256
#define DIM_LOCAL_WORK_GROUP_Y 1

typedef float DATA_TYPE;

FERRY_KERNEL void bicgKernel1(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *p,
                              DATA_TYPE *q, int nx, int ny) {
  int i = kc.x;
  if (i < nx) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; j++)
      q[i] += A[i * ny + j] * p[j];
  }
}

FERRY_KERNEL void bicgKernel2(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *r,
                              DATA_TYPE *s, int nx, int ny) {
  int j = kc.x;
  if (j < ny) {
    s[j] = 0.0f;
    for (int i = 0; i < nx; i++)
      s[j] += A[i * ny + j] * r[i];
  }
}

void init_array(int nx, int ny, std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &p,
                std::vector<DATA_TYPE> &r) {
  for (int i = 0; i < ny; i++)
    p[i] = (DATA_TYPE)(i % 5 - 2);
  for (int i = 0; i < nx; i++) {
    r[i] = (DATA_TYPE)(i % 7 - 3);
    for (int j = 0; j < ny; j++)
      A[i * NY + j] = (DATA_TYPE)((i * (j + 1)) % 5 - 2);
  }
}

void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &r,
                 std::vector<DATA_TYPE> &s, std::vector<DATA_TYPE> &p,
                 std::vector<DATA_TYPE> &q, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &r_mem_obj, ferry::Buffer<DATA_TYPE> &s_mem_obj,
                 ferry::Buffer<DATA_TYPE> &p_mem_obj, ferry::Buffer<DATA_TYPE> &q_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(r.begin(), r.end(), r_mem_obj.begin());
  std::copy(s.begin(), s.end(), s_mem_obj.begin());
  std::copy(p.begin(), p.end(), p_mem_obj.begin());
  std::copy(q.begin(), q.end(), q_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int nx, int ny,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &r_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &s_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &p_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &q_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NX) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = 1;
  cc.dispatch(bicgKernel1, ferry::Range(globalWorkSize[0]), a_mem_obj, p_mem_obj, q_mem_obj,
              nx, ny);
  globalWorkSize[0] = (size_t)std::ceil(((float)NY) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = 1;
  cc.dispatch(bicgKernel2, ferry::Range(globalWorkSize[0]), a_mem_obj, r_mem_obj, s_mem_obj,
              nx, ny);
}

int main(int argc, char *argv[]) {
  int nx = argc > 1 ? std::atoi(argv[1]) : NX;
  int ny = nx;
  std::vector<DATA_TYPE> A(NX * NY), s(NY), q(NX), p(NY), r(NX), s_outputFromGpu(NY),
      q_outputFromGpu(NX);
  init_array(nx, ny, A, p, r);

  ferry::Buffer<DATA_TYPE> a_mem_obj(NX * NY), r_mem_obj(NX), s_mem_obj(NX), p_mem_obj(NX),
      q_mem_obj(NX);
  cl_mem_init(A, r, s, p, q, a_mem_obj, r_mem_obj, s_mem_obj, p_mem_obj, q_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, nx, ny, a_mem_obj, r_mem_obj, s_mem_obj, p_mem_obj, q_mem_obj);
  });
  std::copy(s_mem_obj.begin(), s_mem_obj.end(), s_outputFromGpu.begin());
  std::copy(q_mem_obj.begin(), q_mem_obj.end(), q_outputFromGpu.begin());

  std::printf("bicg %d\n", nx);
  printApprox("s", s_outputFromGpu.data(), s_outputFromGpu.size());
  printApprox("q", q_outputFromGpu.data(), q_outputFromGpu.size());
  return 0;
}
