// polybench/jacobi2d.cpp as a target of four Ferry sources (issue 23):
// jacobi2d.h (constants, kernels), solver.cpp (the launch wrappers),
// setup.cpp (init_array, cl_mem_init) and this file (run_jacobi, main). It
// must move exactly the bytes of the one-file form, worked out there and
// repeated here:
// ferry-multifile: one-file polybench/jacobi2d.cpp
// PolyBench-ACC jacobi-2d-imper, OpenCL version, written anew in Ferry's
// dialect. Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/stencils/jacobi-2d-imper/jacobi2D.c (host) and jacobi2D.cl
// (runJacobi2D_kernel1/2).
//
// As in the original, cl_mem_init copies a and b into their buffers, the
// time loop calls the launch wrappers cl_launch_kernel1(n) (B = average of
// A's neighbours, interior only) and cl_launch_kernel2(n) (A = B, interior
// only), both over an N x N range, and main reads both a and b back. The
// original's time loop is in main; Ferry dispatches only from compute
// functions (lu.cpp shows what marking the wrappers FERRY_COMPUTE costs),
// so here the loop sits in a compute function, run_jacobi, and the wrappers
// stay plain. The original's buffers are globals; Ferry rejects those
// (findings/global_buffer_pointer.cpp), so main owns them.
//
//   jacobi2d [n tsteps]      (at most N = 32, TSTEPS = 5)
//
// Bytes the ORIGINAL host code moves at 32, 5 steps (a grid 4096 B):
//   clEnqueueWriteBuffer a 4096, b 4096;  clEnqueueReadBuffer a 4096, b 4096
//   in 2 (8192 B), out 2 (8192 B).
// Dispatches: 2 per step: 10.
// Whole-buffer optimum: kernel1 reads a (host-written): in (1). It writes
// only b's interior, and the host reads all of b afterwards, so b's
// boundary must be the host's: in (1). The host reads a and b: out (2).
//   in 2 (8192 B), out 2 (8192 B), 10 dispatches: equal to the original.
// suite-original: to_device 2 to_device_bytes 8192 from_device 2 from_device_bytes 8192
// ferry-test: args 32 5
// ferry-test: to_device 2 to_device_bytes 8192 from_device 2 from_device_bytes 8192
// ferry-test: dispatches 10
#include "jacobi2d.h"

FERRY_COMPUTE void run_jacobi(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                              ferry::Buffer<DATA_TYPE> &b_mem_obj, int n, int tsteps) {
  int t;
  for (t = 0; t < _PB_TSTEPS; t++) {
    cl_launch_kernel1(cc, a_mem_obj, b_mem_obj, n);
    cl_launch_kernel2(cc, a_mem_obj, b_mem_obj, n);
  }
}

int main(int argc, char *argv[]) {
  int n = argc > 1 ? std::atoi(argv[1]) : N;
  int tsteps = argc > 2 ? std::atoi(argv[2]) : TSTEPS;
  std::vector<DATA_TYPE> a(N * N), b(N * N), a_outputFromGpu(N * N), b_outputFromGpu(N * N);
  init_array(n, a, b);

  ferry::Buffer<DATA_TYPE> a_mem_obj(N * N), b_mem_obj(N * N);
  cl_mem_init(a, b, a_mem_obj, b_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run_jacobi(cc, a_mem_obj, b_mem_obj, n, tsteps); });
  std::copy(a_mem_obj.begin(), a_mem_obj.end(), a_outputFromGpu.begin());
  std::copy(b_mem_obj.begin(), b_mem_obj.end(), b_outputFromGpu.begin());

  std::printf("jacobi2d %d %d\n", n, tsteps);
  printApprox("a", a_outputFromGpu.data(), a_outputFromGpu.size());
  printApprox("b", b_outputFromGpu.data(), b_outputFromGpu.size());
  return 0;
}
