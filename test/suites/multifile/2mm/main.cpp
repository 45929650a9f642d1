// polybench/2mm.cpp as a target of four Ferry sources (issue 23): 2mm.h
// (constants, kernels), solver.cpp (cl_launch_kernel, the compute
// function), setup.cpp (init_array, cl_mem_init) and this file (main). It
// must move exactly the bytes of the one-file form, worked out there and
// repeated here:
// ferry-multifile: one-file polybench/2mm.cpp
// PolyBench-ACC 2mm, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/linear-algebra/kernels/2mm/2mm.c (host) and 2mm.cl
// (mm2_kernel1, mm2_kernel2).
//
// D = alpha * A * B * C + beta * D in two kernels through tmp. As in the
// original, cl_mem_init copies all five host arrays (tmp, A, B, C,
// D_outputFromGpu) into their buffers, cl_launch_kernel() dispatches the two
// kernels over 2-D ranges rounded up to 32 x 8 (both sized from NI and NL),
// and main reads D back into D_outputFromGpu. The original's buffers are
// globals; Ferry rejects those (findings/global_buffer_pointer.cpp), so main
// owns them and passes them along. Small integer inputs: every sum is exact.
//
//   2mm [n]      (NI = NJ = NK = NL = n, at most 64)
//
// Bytes the ORIGINAL host code moves at 64 (floats, a matrix 64*64*4 = 16384 B):
//   clEnqueueWriteBuffer tmp, A, B, C, D: 5 x 16384 = 81920
//   clEnqueueReadBuffer  D:                            16384
//   in 5 (81920 B), out 1 (16384 B).
// Whole-buffer optimum: kernel1 reads A and B (host-written): in (2); it
// zeroes tmp[i][j] and then accumulates into it, over a grid covering tmp:
// no copy in. kernel2 reads C and D (D *= beta), host-written: in (2). The
// host reads D afterwards: out (1); it never reads tmp, A, B, C.
//   in 4 (65536 B), out 1 (16384 B), 2 dispatches.
// suite-original: to_device 5 to_device_bytes 81920 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// ferry-test: to_device 4 to_device_bytes 65536 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 2
#include "2mm.h"

int main(int argc, char *argv[]) {
  int ni = argc > 1 ? std::atoi(argv[1]) : NI;
  int nj = ni, nk = ni, nl = ni;
  DATA_TYPE alpha, beta;
  std::vector<DATA_TYPE> tmp(NI * NJ), A(NI * NK), B(NK * NJ), C(NL * NJ), D(NI * NL),
      D_outputFromGpu(NI * NL);
  init_array(ni, nj, nk, nl, &alpha, &beta, A, B, C, D);
  D_outputFromGpu = D;

  ferry::Buffer<DATA_TYPE> tmp_mem_obj(NI * NJ), a_mem_obj(NI * NK), b_mem_obj(NK * NJ),
      c_mem_obj(NL * NJ), dOutputFromGpu_mem_obj(NI * NL);
  cl_mem_init(tmp, A, B, C, D_outputFromGpu, tmp_mem_obj, a_mem_obj, b_mem_obj, c_mem_obj,
              dOutputFromGpu_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, ni, nj, nk, nl, alpha, beta, tmp_mem_obj, a_mem_obj, b_mem_obj,
                     c_mem_obj, dOutputFromGpu_mem_obj);
  });
  std::copy(dOutputFromGpu_mem_obj.begin(), dOutputFromGpu_mem_obj.end(),
            D_outputFromGpu.begin());

  std::printf("2mm %d\n", ni);
  printApprox("D", D_outputFromGpu.data(), D_outputFromGpu.size());
  return 0;
}
