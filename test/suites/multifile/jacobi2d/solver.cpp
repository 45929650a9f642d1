// polybench/jacobi2d.cpp's launch wrappers, in a Ferry source of their own:
// main.cpp's run_jacobi calls them, so the target plans them as callees of
// a planned function (no copies at their returns), as the one-file form does.
#include "jacobi2d.h"

void cl_launch_kernel1(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       ferry::Buffer<DATA_TYPE> &b_mem_obj, int n) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = N;
  globalWorkSize[1] = N;
  cc.dispatch(runJacobi2D_kernel1, ferry::Range(globalWorkSize[0], globalWorkSize[1]), a_mem_obj,
              b_mem_obj, n);
}

void cl_launch_kernel2(ferry::ComputeContext &cc, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                       ferry::Buffer<DATA_TYPE> &b_mem_obj, int n) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = N;
  globalWorkSize[1] = N;
  cc.dispatch(runJacobi2D_kernel2, ferry::Range(globalWorkSize[0], globalWorkSize[1]), a_mem_obj,
              b_mem_obj, n);
}
