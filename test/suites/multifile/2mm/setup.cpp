// polybench/2mm.cpp's host setup, in a Ferry source of its own.
#include "2mm.h"

void init_array(int ni, int nj, int nk, int nl, DATA_TYPE *alpha, DATA_TYPE *beta,
                std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                std::vector<DATA_TYPE> &C, std::vector<DATA_TYPE> &D) {
  *alpha = 3;
  *beta = 2;
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nk; j++)
      A[i * NK + j] = (DATA_TYPE)((i * j + 1) % 5 - 2);
  for (int i = 0; i < nk; i++)
    for (int j = 0; j < nj; j++)
      B[i * NJ + j] = (DATA_TYPE)((i * (j + 1)) % 5 - 2);
  for (int i = 0; i < nl; i++)
    for (int j = 0; j < nj; j++)
      C[i * NJ + j] = (DATA_TYPE)((i * (j + 3)) % 5 - 2);
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++)
      D[i * NL + j] = (DATA_TYPE)((i * (j + 2)) % 7 - 3);
}

void cl_mem_init(std::vector<DATA_TYPE> &tmp, std::vector<DATA_TYPE> &A,
                 std::vector<DATA_TYPE> &B, std::vector<DATA_TYPE> &C,
                 std::vector<DATA_TYPE> &D_outputFromGpu,
                 ferry::Buffer<DATA_TYPE> &tmp_mem_obj, ferry::Buffer<DATA_TYPE> &a_mem_obj,
                 ferry::Buffer<DATA_TYPE> &b_mem_obj, ferry::Buffer<DATA_TYPE> &c_mem_obj,
                 ferry::Buffer<DATA_TYPE> &dOutputFromGpu_mem_obj) {
  std::copy(tmp.begin(), tmp.end(), tmp_mem_obj.begin());
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(B.begin(), B.end(), b_mem_obj.begin());
  std::copy(C.begin(), C.end(), c_mem_obj.begin());
  std::copy(D_outputFromGpu.begin(), D_outputFromGpu.end(), dOutputFromGpu_mem_obj.begin());
}
