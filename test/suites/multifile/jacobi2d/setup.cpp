// polybench/jacobi2d.cpp's host setup, in a Ferry source of its own.
#include "jacobi2d.h"

void init_array(int n, std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i * N + j] = ((DATA_TYPE)i * (j + 2) + 10) / N;
      B[i * N + j] = ((DATA_TYPE)(i - 4) * (j - 1) + 11) / N;
    }
}

void cl_mem_init(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &B,
                 ferry::Buffer<DATA_TYPE> &a_mem_obj, ferry::Buffer<DATA_TYPE> &b_mem_obj) {
  std::copy(A.begin(), A.end(), a_mem_obj.begin());
  std::copy(B.begin(), B.end(), b_mem_obj.begin());
}
