// PolyBench-ACC fdtd-2d, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/cavazos-lab/PolyBench-ACC,
// OpenCL/stencils/fdtd-2d/fdtd2d.c (host) and fdtd2d.cl (fdtd_kernel1/2/3).
//
// As in the original, cl_mem_init copies _fict_, ex, ey and hz into their
// buffers, cl_launch_kernel() loops over t and dispatches the three kernels
// (all over one 2-D range rounded up to 32 x 8) in each step, and main reads
// hz back into hz_outputFromGpu. The original's buffers are globals; Ferry
// rejects those (findings/global_buffer_pointer.cpp), so main owns them.
//
//   fdtd-2d [n tmax]      (NX = NY = n, at most 32; TMAX at most 8)
//
// Bytes the ORIGINAL host code moves at 32 x 32, 8 steps (a field
// 32*32*4 = 4096 B, _fict_ 8*4 = 32 B):
//   clEnqueueWriteBuffer _fict_ 32, ex 4096, ey 4096, hz 4096 = 12320
//   clEnqueueReadBuffer  hz 4096
//   in 4 (12320 B), out 1 (4096 B).
// Dispatches: 3 per step: 24.
// Whole-buffer optimum: kernel1 reads _fict_, ey and hz, kernel2 reads ex,
// all host-written: in (4). The host reads only hz: out (1).
//   in 4 (12320 B), out 1 (4096 B), 24 dispatches: equal to the original.
// suite-original: to_device 4 to_device_bytes 12320 from_device 1 from_device_bytes 4096
// ferry-test: args 32 8
// ferry-test: to_device 4 to_device_bytes 12320 from_device 1 from_device_bytes 4096
// ferry-test: dispatches 24
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define TMAX 8
#define NX 32
#define NY 32
#define _PB_TMAX tmax
#define DIM_LOCAL_WORK_GROUP_X 32
#define DIM_LOCAL_WORK_GROUP_Y 8

typedef float DATA_TYPE;

FERRY_KERNEL void fdtd_kernel1(ferry::KernelContext kc, DATA_TYPE *_fict_, DATA_TYPE * /*ex*/,
                               DATA_TYPE *ey, DATA_TYPE *hz, int t, int nx, int ny) {
  int j = kc.x;
  int i = kc.y;
  if ((i < nx) && (j < ny)) {
    if (i == 0)
      ey[i * ny + j] = _fict_[t];
    else
      ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

FERRY_KERNEL void fdtd_kernel2(ferry::KernelContext kc, DATA_TYPE *ex, DATA_TYPE * /*ey*/,
                               DATA_TYPE *hz, int nx, int ny) {
  int j = kc.x;
  int i = kc.y;
  if ((i < nx) && (j < ny) && (j > 0))
    ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

FERRY_KERNEL void fdtd_kernel3(ferry::KernelContext kc, DATA_TYPE *ex, DATA_TYPE *ey,
                               DATA_TYPE *hz, int nx, int ny) {
  int j = kc.x;
  int i = kc.y;
  if ((i < (nx - 1)) && (j < (ny - 1)))
    hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + (j + 1)] - ex[i * ny + j] +
                                             ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

void init_arrays(int tmax, int nx, int ny, std::vector<DATA_TYPE> &_fict_,
                 std::vector<DATA_TYPE> &ex, std::vector<DATA_TYPE> &ey,
                 std::vector<DATA_TYPE> &hz) {
  for (int i = 0; i < tmax; i++)
    _fict_[i] = (DATA_TYPE)i;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      ex[i * NY + j] = ((DATA_TYPE)i * (j + 1) + 1) / NX;
      ey[i * NY + j] = ((DATA_TYPE)(i - 1) * (j + 2) + 2) / NX;
      hz[i * NY + j] = ((DATA_TYPE)(i - 9) * (j + 4) + 3) / NX;
    }
}

void cl_mem_init(std::vector<DATA_TYPE> &_fict_, std::vector<DATA_TYPE> &ex,
                 std::vector<DATA_TYPE> &ey, std::vector<DATA_TYPE> &hz,
                 ferry::Buffer<DATA_TYPE> &fict_mem_obj, ferry::Buffer<DATA_TYPE> &ex_mem_obj,
                 ferry::Buffer<DATA_TYPE> &ey_mem_obj, ferry::Buffer<DATA_TYPE> &hz_mem_obj) {
  std::copy(_fict_.begin(), _fict_.end(), fict_mem_obj.begin());
  std::copy(ex.begin(), ex.end(), ex_mem_obj.begin());
  std::copy(ey.begin(), ey.end(), ey_mem_obj.begin());
  std::copy(hz.begin(), hz.end(), hz_mem_obj.begin());
}

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int tmax, int nx, int ny,
                                    ferry::Buffer<DATA_TYPE> &fict_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &ex_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &ey_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &hz_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NY) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NX) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  int t;
  for (t = 0; t < _PB_TMAX; t++) {
    cc.dispatch(fdtd_kernel1, ferry::Range(globalWorkSize[0], globalWorkSize[1]), fict_mem_obj,
                ex_mem_obj, ey_mem_obj, hz_mem_obj, t, nx, ny);
    cc.dispatch(fdtd_kernel2, ferry::Range(globalWorkSize[0], globalWorkSize[1]), ex_mem_obj,
                ey_mem_obj, hz_mem_obj, nx, ny);
    cc.dispatch(fdtd_kernel3, ferry::Range(globalWorkSize[0], globalWorkSize[1]), ex_mem_obj,
                ey_mem_obj, hz_mem_obj, nx, ny);
  }
}

int main(int argc, char *argv[]) {
  int nx = argc > 1 ? std::atoi(argv[1]) : NX;
  int ny = nx;
  int tmax = argc > 2 ? std::atoi(argv[2]) : TMAX;
  std::vector<DATA_TYPE> _fict_(TMAX), ex(NX * NY), ey(NX * NY), hz(NX * NY),
      hz_outputFromGpu(NX * NY);
  init_arrays(tmax, nx, ny, _fict_, ex, ey, hz);

  ferry::Buffer<DATA_TYPE> fict_mem_obj(TMAX), ex_mem_obj(NX * NY), ey_mem_obj(NX * NY),
      hz_mem_obj(NX * NY);
  cl_mem_init(_fict_, ex, ey, hz, fict_mem_obj, ex_mem_obj, ey_mem_obj, hz_mem_obj);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cl_launch_kernel(cc, tmax, nx, ny, fict_mem_obj, ex_mem_obj, ey_mem_obj, hz_mem_obj);
  });
  std::copy(hz_mem_obj.begin(), hz_mem_obj.end(), hz_outputFromGpu.begin());

  std::printf("fdtd-2d %d %d\n", nx, tmax);
  printApprox("hz", hz_outputFromGpu.data(), hz_outputFromGpu.size());
  return 0;
}
