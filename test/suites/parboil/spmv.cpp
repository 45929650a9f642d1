// Parboil spmv (sparse matrix-vector product, JDS format), OpenCL base
// version, written anew in Ferry's dialect. Original: github.com/abduld/
// Parboil, benchmarks/spmv/src/opencl_base/main.c (host) and kernel.cl
// (spmv_jds_naive).
//
// The matrix is in jagged-diagonal storage: rows sorted by length (perm),
// diagonal k starting at jds_ptr[k], and per group of 32 sorted rows the
// longest row's length (sh_zcnt). The original reads it from a file; here
// row r has 1 + (7r mod 5) entries of small integers, so the products are
// exact. The same kernel runs 50 times, as in the original's timing loop,
// and each work-item stores its sum through the permutation,
// dst_vector[perm[ix]]: Ferry cannot see that this covers the vector, so the
// parameter carries FERRY_WO (the original's CL_MEM_WRITE_ONLY).
//
//   spmv [DIM ITERATIONS]     (DIM a multiple of 32)
//
// Bytes the ORIGINAL host code moves at DIM 256: lengths 1..5, 51 or 52 rows
// each; rows longer than k: 256, 204, 153, 102, 51, padded to 32: 256, 224,
// 160, 128, 64, so len = 832 and depth = 5.
//   clMemSet (a clEnqueueWriteBuffer of zeros) d_Ax_vector  256*4 = 1024
//   clEnqueueWriteBuffer d_data      832*4 = 3328
//   clEnqueueWriteBuffer d_indices   832*4 = 3328
//   clEnqueueWriteBuffer d_perm      256*4 = 1024
//   clEnqueueWriteBuffer d_x_vector  256*4 = 1024
//   clEnqueueWriteBuffer jds_ptr_int   5*4 =   20
//   clEnqueueWriteBuffer sh_zcnt_int   8*4 =   32
//   clEnqueueReadBuffer  d_Ax_vector 256*4 = 1024
//   in 7 (9780 B), out 1 (1024 B).
// Whole-buffer optimum: the six read-only inputs are host-written: in (6,
// 8756 B). The result is write-only and fully overwritten: no copy in; the
// host prints it: out (1, 1024 B). The 49 later dispatches need nothing.
//   in 6 (8756 B), out 1 (1024 B), 50 dispatches.
// suite-original: to_device 7 to_device_bytes 9780 from_device 1 from_device_bytes 1024
// ferry-test: args 256 50
// ferry-test: to_device 6 to_device_bytes 8756 from_device 1 from_device_bytes 1024
// ferry-test: dispatches 50
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

FERRY_KERNEL void spmv_jds_naive(ferry::KernelContext kc, FERRY_WO float *dst_vector,
                                 const float *d_data, const int *d_index,
                                 const int *d_perm, const float *x_vec,
                                 const int dim, const int *jds_ptr_int,
                                 const int *sh_zcnt_int) {
  const int ix = kc.x;
  if (ix < dim) {
    float sum = 0.0f;
    // 32: the group of rows that share one length bound (a warp, originally)
    const int bound = sh_zcnt_int[ix / 32];
    for (int k = 0; k < bound; k++) {
      const int j = jds_ptr_int[k] + ix;
      const int in = d_index[j];
      const float d = d_data[j];
      const float t = x_vec[in];
      sum += d * t;
    }
    dst_vector[d_perm[ix]] = sum;
  }
}

struct Jds {
  ferry::Buffer<float> data;
  ferry::Buffer<int> indices, perm, ptr, zcnt;
};

FERRY_COMPUTE void spmv(ferry::ComputeContext &cc, ferry::Buffer<float> &ax,
                        ferry::Buffer<float> &data, ferry::Buffer<int> &indices,
                        ferry::Buffer<int> &perm, ferry::Buffer<float> &x,
                        ferry::Buffer<int> &ptr, ferry::Buffer<int> &zcnt,
                        int dim, int iterations) {
  for (int i = 0; i < iterations; i++)
    cc.dispatch(spmv_jds_naive, ferry::Range(dim), ax, data, indices, perm, x,
                dim, ptr, zcnt);
}

// Builds the JDS form of the generated matrix: row r has 1 + (7r mod 5)
// entries, at columns (r + 17 e) mod dim, valued (r + 3 e) mod 7 - 3.
static Jds makeMatrix(int dim) {
  std::vector<int> length(dim), order(dim);
  for (int r = 0; r < dim; ++r) {
    length[r] = 1 + (r * 7) % 5;
    order[r] = r;
  }
  // Longest rows first, ties in row order (std::sort with the row as the
  // tie-break: std::stable_sort makes `ferry rewrite` print a libstdc++
  // deprecation warning, /work/findings/suites.md entry 9).
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return length[a] != length[b] ? length[a] > length[b] : a < b;
  });
  const int depth = length[order[0]];
  std::vector<int> ptr(depth);
  int len = 0;
  for (int k = 0; k < depth; ++k) {
    int rows = 0;
    for (int r = 0; r < dim; ++r)
      rows += length[r] > k;
    ptr[k] = len;
    len += (rows + 31) / 32 * 32;
  }
  Jds m{ferry::Buffer<float>(len), ferry::Buffer<int>(len), ferry::Buffer<int>(dim),
        ferry::Buffer<int>(depth), ferry::Buffer<int>(dim / 32)};
  for (int ix = 0; ix < dim; ++ix) {
    const int r = order[ix];
    m.perm[ix] = r;
    m.zcnt[ix / 32] = std::max(m.zcnt[ix / 32], length[r]);
    for (int e = 0; e < length[r]; ++e) {
      m.data[ptr[e] + ix] = static_cast<float>((r + 3 * e) % 7 - 3);
      m.indices[ptr[e] + ix] = (r + 17 * e) % dim;
    }
  }
  for (int k = 0; k < depth; ++k)
    m.ptr[k] = ptr[k];
  return m;
}

int main(int argc, char **argv) {
  const int dim = argc > 1 ? std::atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 50;
  Jds m = makeMatrix(dim);
  ferry::Buffer<float> x(dim), ax(dim);
  for (int i = 0; i < dim; ++i)
    x[i] = static_cast<float>(i % 13 - 6);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    spmv(cc, ax, m.data, m.indices, m.perm, x, m.ptr, m.zcnt, dim, iterations);
  });
  std::printf("spmv dim %d, %zu stored entries, %d iterations\n", dim,
              m.data.size(), iterations);
  printExact("Ax", ax);
}
