// polybench/2mm.cpp's compute function, in a Ferry source of its own.
// main.cpp starts it with acc.compute and never uses tmp, A, B or C again:
// main.cpp's summary says so, and this file's plan copies none of them back,
// as the one-file form's does not.
#include "2mm.h"

FERRY_COMPUTE void cl_launch_kernel(ferry::ComputeContext &cc, int ni, int nj, int nk, int nl,
                                    DATA_TYPE alpha, DATA_TYPE beta,
                                    ferry::Buffer<DATA_TYPE> &tmp_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &a_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &b_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &c_mem_obj,
                                    ferry::Buffer<DATA_TYPE> &dOutputFromGpu_mem_obj) {
  size_t globalWorkSize[2];
  globalWorkSize[0] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NL) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(mm2_kernel1, ferry::Range(globalWorkSize[0], globalWorkSize[1]), tmp_mem_obj,
              a_mem_obj, b_mem_obj, ni, nj, nk, nl, alpha, beta);
  globalWorkSize[0] = (size_t)std::ceil(((float)NI) / ((float)DIM_LOCAL_WORK_GROUP_X)) * DIM_LOCAL_WORK_GROUP_X;
  globalWorkSize[1] = (size_t)std::ceil(((float)NL) / ((float)DIM_LOCAL_WORK_GROUP_Y)) * DIM_LOCAL_WORK_GROUP_Y;
  cc.dispatch(mm2_kernel2, ferry::Range(globalWorkSize[0], globalWorkSize[1]), tmp_mem_obj,
              c_mem_obj, dOutputFromGpu_mem_obj, ni, nj, nk, nl, alpha, beta);
}
