// Rodinia lud (blocked LU decomposition), OpenCL version, written anew in
// Ferry's dialect. Original: github.com/yuhc/gpu-rodinia, opencl/lud/ocl/
// lud.cpp (host) and opencl/lud/lud_kernel.cl (lud_diagonal,
// lud_perimeter, lud_internal).
//
// The original kernels stage 16 x 16 blocks in local memory (shadow, dia,
// peri_row, peri_col) with barriers. Local memory and barriers are not
// implemented in Ferry yet; the nearest race-free versions work in place in
// the global matrix with the same ranges and the same arithmetic:
//   * lud_diagonal (range BLOCK_SIZE): work-item tx == 0 runs the block's
//     factorisation itself, phase after phase, for every tx > i in turn
//     (what the work-items did between two barriers);
//   * lud_perimeter (range 2 * BLOCK_SIZE per block): each work-item
//     already owned one column of peri_row or one row of peri_col and read
//     only the diagonal block besides, which this kernel does not write:
//     it updates its column / row in place;
//   * lud_internal: each work-item reads the perimeter blocks (not written
//     by this kernel) and updates its own element.
// Group and local ids come from the global id (bx = kc.x / (2 *
// BLOCK_SIZE), ...). The host is the original's: the matrix (malloc'd,
// from create_matrix) is uploaded, the block loop launches the three
// kernels (skipping perimeter / internal when their range is empty), a
// final diagonal, and the read back.
//
//   lud [MATRIX_DIM]   (a multiple of 16)
//
// Bytes the ORIGINAL host code moves at 64 x 64 floats (16384 B):
//   clEnqueueWriteBuffer d_m 16384; clEnqueueReadBuffer d_m 16384
//   in 1 (16384 B), out 1 (16384 B).
// Whole-buffer optimum: the same (the matrix is read and written by every
// kernel and read by the host at the end). Dispatches: 3 block steps x 3 +
// the final diagonal = 10.
// suite-original: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// ferry-test: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 10
#include "Print.h"

#include <algorithm>
#include <cstdlib>

#define BLOCK_SIZE 16

FERRY_KERNEL void lud_diagonal(ferry::KernelContext kc, float *m, int matrix_dim, int offset) {
  int i, j, t;
  int tx = kc.x % BLOCK_SIZE;
  int array_offset = offset * matrix_dim + offset;
  if (tx != 0)
    return;
  for (i = 0; i < BLOCK_SIZE - 1; i++) {
    for (t = i + 1; t < BLOCK_SIZE; t++) {
      for (j = 0; j < i; j++)
        m[array_offset + t * matrix_dim + i] -=
            m[array_offset + t * matrix_dim + j] * m[array_offset + j * matrix_dim + i];
      m[array_offset + t * matrix_dim + i] /= m[array_offset + i * matrix_dim + i];
    }
    for (t = i + 1; t < BLOCK_SIZE; t++) {
      for (j = 0; j < i + 1; j++)
        m[array_offset + (i + 1) * matrix_dim + t] -=
            m[array_offset + (i + 1) * matrix_dim + j] * m[array_offset + j * matrix_dim + t];
    }
  }
}

FERRY_KERNEL void lud_perimeter(ferry::KernelContext kc, float *m, int matrix_dim, int offset) {
  int i, j, array_offset;
  int idx;
  int bx = kc.x / (BLOCK_SIZE * 2);
  int tx = kc.x % (BLOCK_SIZE * 2);
  // dia[i][j] is m[dia_offset + i * matrix_dim + j]
  int dia_offset = offset * matrix_dim + offset;

  if (tx < BLOCK_SIZE) { // peri-row: column idx of the block right of the diagonal
    idx = tx;
    array_offset = offset * matrix_dim + offset + (bx + 1) * BLOCK_SIZE + idx;
    for (i = 1; i < BLOCK_SIZE; i++) {
      for (j = 0; j < i; j++)
        m[array_offset + i * matrix_dim] -=
            m[dia_offset + i * matrix_dim + j] * m[array_offset + j * matrix_dim];
    }
  } else { // peri-col: row idx of the block below the diagonal
    idx = tx - BLOCK_SIZE;
    array_offset = (offset + (bx + 1) * BLOCK_SIZE + idx) * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
      for (j = 0; j < i; j++)
        m[array_offset + i] -= m[array_offset + j] * m[dia_offset + j * matrix_dim + i];
      m[array_offset + i] /= m[dia_offset + i * matrix_dim + i];
    }
  }
}

FERRY_KERNEL void lud_internal(ferry::KernelContext kc, float *m, int matrix_dim, int offset) {
  int bx = kc.x / BLOCK_SIZE;
  int by = kc.y / BLOCK_SIZE;
  int tx = kc.x % BLOCK_SIZE;
  int ty = kc.y % BLOCK_SIZE;
  int i;
  float sum;
  int global_row_id = offset + (by + 1) * BLOCK_SIZE;
  int global_col_id = offset + (bx + 1) * BLOCK_SIZE;
  sum = 0;
  for (i = 0; i < BLOCK_SIZE; i++)
    sum += m[(global_row_id + ty) * matrix_dim + offset + i] *
           m[(offset + i) * matrix_dim + global_col_id + tx];
  m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}

FERRY_COMPUTE void lud(ferry::ComputeContext &cc, float *m, int matrix_dim) {
  ferry::Buffer<float> d_m(matrix_dim * matrix_dim);
  std::copy(m, m + matrix_dim * matrix_dim, d_m.begin());
  int i = 0;
  for (i = 0; i < matrix_dim - BLOCK_SIZE; i += BLOCK_SIZE) {
    cc.dispatch(lud_diagonal, ferry::Range(BLOCK_SIZE), d_m, matrix_dim, i);
    int global_work2 = BLOCK_SIZE * 2 * ((matrix_dim - i) / BLOCK_SIZE - 1);
    if (global_work2 > 0) {
      cc.dispatch(lud_perimeter, ferry::Range(global_work2), d_m, matrix_dim, i);
    }
    int global_work3 = BLOCK_SIZE * ((matrix_dim - i) / BLOCK_SIZE - 1);
    if (global_work3 > 0) {
      cc.dispatch(lud_internal, ferry::Range(global_work3, global_work3), d_m, matrix_dim, i);
    }
  }
  cc.dispatch(lud_diagonal, ferry::Range(BLOCK_SIZE), d_m, matrix_dim, i);
  std::copy(d_m.begin(), d_m.end(), m);
}

// A diagonally dominant matrix, so the factorisation needs no pivoting.
int create_matrix(float **mp, int size) {
  float *m = (float *)std::malloc(sizeof(float) * size * size);
  if (m == nullptr)
    return 1;
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++)
      m[i * size + j] = i == j ? static_cast<float>(size) : 0.125f * static_cast<float>((i * 7 + j * 3) % 9);
  *mp = m;
  return 0;
}

int main(int argc, char **argv) {
  int matrix_dim = argc > 1 ? std::atoi(argv[1]) : 64;
  float *m;
  if (create_matrix(&m, matrix_dim)) {
    std::printf("Failed to create matrix internally size=%d\n", matrix_dim);
    return 1;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { lud(cc, m, matrix_dim); });
  std::printf("lud %d\n", matrix_dim);
  printApprox("m", m, matrix_dim * matrix_dim);
  std::free(m);
}
