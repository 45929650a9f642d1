// PolyBench-ACC 3mm, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/3mm/3mm.c (host) and 3mm.cl
// (mm3_kernel1/2/3).
//
// G = (A*B) * (C*D) through E = A*B and F = C*D. As in the original,
// cl_mem_init copies all seven host arrays A..G into their buffers (E, F, G
// are uninitialised host arrays there, zero here), cl_launch_kernel()
// dispatches the three kernels over 2-D ranges rounded up to 32 x 8, and main
// reads G back into G_outputFromGpu. The original's buffers are globals;
// Ferry rejects those (findings/global_buffer_pointer.cpp), so main owns
// them. Small integer inputs: every sum is exact.
//
//   3mm [n]      (NI = NJ = NK = NL = NM = n, at most 64)
//
// Bytes the ORIGINAL host code moves at 64 (a matrix 64*64*4 = 16384 B):
//   clEnqueueWriteBuffer A, B, C, D, E, F, G: 7 x 16384 = 114688
//   clEnqueueReadBuffer  G:                              16384
//   in 7 (114688 B), out 1 (16384 B).
// Whole-buffer optimum: kernels read A, B, C, D (host-written): in (4).
// E, F and G are each zeroed at [i][j] and accumulated there over a grid
// covering them: no copy in. The host reads only G: out (1).
//   in 4 (65536 B), out 1 (16384 B), 3 dispatches.
// suite-original: to_device 7 to_device_bytes 114688 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// ferry-test: to_device 4 to_device_bytes 65536 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 3
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define NI 64
#define NJ 64
#define NK 64
#define NL 64
#define NM 64
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void mm3_kernel1(ferry::KernelContext kc, DATA_TYPE *A, DATA_TYPE *B,
                              DATA_TYPE *E, int ni, int nj, int nk) {
  int j = kc.x;
  int i = kc.y;
  if ((i < ni) && (j < nj)) {
    E[i * nj + j] = 0;
    for (int k = 0; k < nk; k++)
      E[i * nj + j] += A[i * nk + k] * B[k * nj + j];
  }
}

FERRY_KERNEL void mm3_kernel2(ferry::KernelContext kc, DATA_TYPE *C, DATA_TYPE *D,
                              DATA_TYPE *F, int nj, int nl, int nm) {
  int j = kc.x;
  int i = kc.y;
  if ((i < nj) && (j < nl)) {
    F[i * nl + j] = 0;
    for (int k = 0; k < nm; k++)
      F[i * nl + j] += C[i * nm + k] * D[k * nl + j];
  }
}

FERRY_KERNEL void mm3_kernel3(ferry::KernelContext kc, DATA_TYPE *E, DATA_TYPE *F,
                              DATA_TYPE *G, int ni, int nl, int nj) {
  int j = kc.x;
  int i = kc.y;
  if ((i < ni) && (j < nl)) {
    G[i * nl + j] = 0;
    for (int k = 0; k < nj; k++)
      G[i * nl + j] += E[i * nj + k] * F[k * nl + j];
  }
}

void init_array(int ni, int nj, int nk, int nl, int nm, std::vector<DATA_TYPE> &A,
                std::vector<DATA_TYPE> &B, std::vector<DATA_TYPE> &C,
                std::vector<DATA_TYPE> &D) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nk; j++)
      A[i * NK + j] = (DATA_TYPE)((i * j + 1) % 5 - 2);
  for (int i = 0; i < nk; i++)
    for (int j = 0; j < nj; j++)
      B[i * NJ + j] = (DATA_TYPE)((i * (j + 1)) % 5 - 2);
  for (int i = 0; i < nj; i++)
    for (int j = 0; j < nm; j++)
      C[i * NM + j] = (DATA_TYPE)((i * (j + 3)) % 5 - 2);
  for (int i = 0; i < nm; i++)
    for (int j = 0; j < nl; j++)
      D[i * NL + j] = (DATA_TYPE)((i * (j + 2)) % 5 - 2);
}

void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                 std::vector<DATA_TYPE> &C, std::vector<DATA_TYPE> &D,
                 std::vector<DATA_TYPE> &E, std::vector<DATA_TYPE> &F,
                 std::vector<DATA_TYPE> &G, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj,
                 ferry::Buffer<DATA_TYPE> &d_mem_obj, ferry::Buffer<DATA_TYPE> &e_mem_obj,
                 ferry::Buffer<DATA_TYPE> &f_mem_obj, ferry::Buffer<DATA_TYPE> &g_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(B.begin(), B.end(), b_mem_obj.begin());
  std::copy(C.begin(), C.end(), c_mem_obj.begin());
  std::copy(D.begin(), D.end(), d_mem_obj.begin());
  std::copy(E.begin(), E.end(), e_mem_obj.begin());
  std::copy(F.begin(), F.end(), f_mem_obj.begin());
  std::copy(G.begin(), G.end(), g_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int ni, int nj, int nk, int nl,
                                    int nm, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &b_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &c_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &d_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &e_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &f_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &g_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NJ) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(mm3_kernel1, ferry::Range(globalWorkSize[0], globalWorkSize[1]), a_mem_obj,
              b_mem_obj, e_mem_obj, ni, nj, nk);
  globalWorkSize[0] = (size_t)std::ceil(((float)NL) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NJ) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(mm3_kernel2, ferry::Range(globalWorkSize[0], globalWorkSize[1]), c_mem_obj,
              d_mem_obj, f_mem_obj, nj, nl, nm);
  globalWorkSize[0] = (size_t)std::ceil(((float)NL) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(mm3_kernel3, ferry::Range(globalWorkSize[0], globalWorkSize[1]), e_mem_obj,
              f_mem_obj, g_mem_obj, ni, nl, nj);
}

int main(int argc, char *argv[]) {
  int ni = argc > 1 ? std::atoi(argv[1]) : NI;
  int nj = ni, nk = ni, nl = ni, nm = ni;
  std::vector<DATA_TYPE> E(NI * NJ), A(NI * NK), B(NK * NJ), F(NJ * NL), C(NJ * NM),
      D(NM * NL), G(NI * NL), G_outputFromGpu(NI * NL);
  init_array(ni, nj, nk, nl, nm, A, B, C, D);

  ferry::Buffer<DATA_TYPE> a_mem_obj(NI * NK), b_mem_obj(NK * NJ), c_mem_obj(NJ * NM),
      d_mem_obj(NM * NL), e_mem_obj(NI * NJ), f_mem_obj(NJ * NL), g_mem_obj(NI * NL);
  cl_mem_init(A, B, C, D, E, F, G, a_mem_obj, b_mem_obj, c_mem_obj, d_mem_obj, e_mem_obj,
              f_mem_obj, g_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, ni, nj, nk, nl, nm, a_mem_obj, b_mem_obj, c_mem_obj, d_mem_obj,
                     e_mem_obj, f_mem_obj, g_mem_obj);
  });
  std::copy(g_mem_obj.begin(), g_mem_obj.end(), G_outputFromGpu.begin());

  std::printf("3mm %d\n", ni);
  printApprox("G", G_outputFromGpu.data(), G_outputFromGpu.size());
  return 0;
}
