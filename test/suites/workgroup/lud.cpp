// Rodinia lud (blocked LU decomposition), OpenCL version, written anew in
// Ferry's dialect with work-groups and local memory. Original:
// github.com/yuhc/gpu-rodinia, opencl/lud/ocl/lud.cpp (host) and
// opencl/lud/lud_kernel.cl (lud_diagonal, lud_perimeter, lud_internal).
//
// The kernels are the original's: lud_diagonal factors the diagonal block
// in the local array `shadow` with one work-item per column and barriers
// between the elimination steps; lud_perimeter (groups of 2 * 16) stages
// the diagonal block and one block of the row and of the column to its
// right and below in `dia`, `peri_row`, `peri_col`, and solves them;
// lud_internal (16 x 16 groups) updates an inner block from its perimeter
// row and column tiles. The original passes every local array as a
// `__local float *` argument sized by clSetKernelArg(k, n,
// sizeof(float) * BLOCK_SIZE * BLOCK_SIZE, NULL); here each is a
// ferry::LocalSpan<float> bound by ferry::localSpan<float>(BLOCK_SIZE *
// BLOCK_SIZE). Launches keep the original's 2-D ranges ({16, 1},
// {32 * n, 1}, {16 * n, 16 * n}). The host is lud.cpp's: upload, the
// block loop (perimeter and internal only where their range is not
// empty), the last diagonal block, the read back.
//
// The matrix is generated as L * U, L unit lower triangular and U upper
// triangular with small integer entries and U's diagonal 1 or 2 (the
// original reads a file or makes a random diagonally dominant matrix):
// every value the elimination computes is then an integer, exact in float
// whatever the order or contraction, and the factors must come out as L
// and U exactly.
//
//   lud [MATRIX_DIM]   (a multiple of 16)
//
// Bytes the ORIGINAL host code moves at 64 x 64 floats (16384 B):
//   clEnqueueWriteBuffer d_m 16384; clEnqueueReadBuffer d_m 16384
//   in 1 (16384 B), out 1 (16384 B).
// Whole-buffer optimum: the same (the matrix is read and written by every
// kernel and read by the host at the end; local memory is never
// transferred). Dispatches: 3 block steps x 3 + the last diagonal = 10.
// suite-original: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: args 64
// ferry-test: to_device 1 to_device_bytes 16384 from_device 1 from_device_bytes 16384
// ferry-test: dispatches 10
#include "Print.h"

#include <cstdlib>
#include <vector>

#define BLOCK_SIZE 16

FERRY_KERNEL void lud_diagonal(ferry::KernelContext kc, float *m, ferry::LocalSpan<float> shadow,
                               int matrix_dim, int offset) {
  int i, j;
  int tx = kc.localX;

  int array_offset = offset * matrix_dim + offset;
  for (i = 0; i < BLOCK_SIZE; i++) {
    shadow[i * BLOCK_SIZE + tx] = m[array_offset + tx];
    array_offset += matrix_dim;
  }
  kc.barrier();

  for (i = 0; i < BLOCK_SIZE - 1; i++) {
    if (tx > i) {
      for (j = 0; j < i; j++)
        shadow[tx * BLOCK_SIZE + i] -= shadow[tx * BLOCK_SIZE + j] * shadow[j * BLOCK_SIZE + i];
      shadow[tx * BLOCK_SIZE + i] /= shadow[i * BLOCK_SIZE + i];
    }
    kc.barrier();
    if (tx > i) {
      for (j = 0; j < i + 1; j++)
        shadow[(i + 1) * BLOCK_SIZE + tx] -=
            shadow[(i + 1) * BLOCK_SIZE + j] * shadow[j * BLOCK_SIZE + tx];
    }
    kc.barrier();
  }

  // Row 0 of the block is already final.
  array_offset = (offset + 1) * matrix_dim + offset;
  for (i = 1; i < BLOCK_SIZE; i++) {
    m[array_offset + tx] = shadow[i * BLOCK_SIZE + tx];
    array_offset += matrix_dim;
  }
}

FERRY_KERNEL void lud_perimeter(ferry::KernelContext kc, float *m, ferry::LocalSpan<float> dia,
                                ferry::LocalSpan<float> peri_row, ferry::LocalSpan<float> peri_col,
                                int matrix_dim, int offset) {
  int i, j, array_offset;
  int idx;
  int bx = kc.groupX;
  int tx = kc.localX;

  if (tx < BLOCK_SIZE) {
    idx = tx;
    array_offset = offset * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE / 2; i++) {
      dia[i * BLOCK_SIZE + idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
    array_offset = offset * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
      peri_row[i * BLOCK_SIZE + idx] = m[array_offset + (bx + 1) * BLOCK_SIZE + idx];
      array_offset += matrix_dim;
    }
  } else {
    idx = tx - BLOCK_SIZE;
    array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
    for (i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
      dia[i * BLOCK_SIZE + idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
    array_offset = (offset + (bx + 1) * BLOCK_SIZE) * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
      peri_col[i * BLOCK_SIZE + idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
  }
  kc.barrier();

  if (tx < BLOCK_SIZE) { // the block right of the diagonal: a column each
    idx = tx;
    for (i = 1; i < BLOCK_SIZE; i++)
      for (j = 0; j < i; j++)
        peri_row[i * BLOCK_SIZE + idx] -= dia[i * BLOCK_SIZE + j] * peri_row[j * BLOCK_SIZE + idx];
  } else { // the block below the diagonal: a row each
    idx = tx - BLOCK_SIZE;
    for (i = 0; i < BLOCK_SIZE; i++) {
      for (j = 0; j < i; j++)
        peri_col[idx * BLOCK_SIZE + i] -= peri_col[idx * BLOCK_SIZE + j] * dia[j * BLOCK_SIZE + i];
      peri_col[idx * BLOCK_SIZE + i] /= dia[i * BLOCK_SIZE + i];
    }
  }
  kc.barrier();

  if (tx < BLOCK_SIZE) {
    idx = tx;
    array_offset = (offset + 1) * matrix_dim + offset;
    for (i = 1; i < BLOCK_SIZE; i++) {
      m[array_offset + (bx + 1) * BLOCK_SIZE + idx] = peri_row[i * BLOCK_SIZE + idx];
      array_offset += matrix_dim;
    }
  } else {
    idx = tx - BLOCK_SIZE;
    array_offset = (offset + (bx + 1) * BLOCK_SIZE) * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
      m[array_offset + idx] = peri_col[i * BLOCK_SIZE + idx];
      array_offset += matrix_dim;
    }
  }
}

FERRY_KERNEL void lud_internal(ferry::KernelContext kc, float *m, ferry::LocalSpan<float> peri_row,
                               ferry::LocalSpan<float> peri_col, int matrix_dim, int offset) {
  int bx = kc.groupX;
  int by = kc.groupY;
  int tx = kc.localX;
  int ty = kc.localY;
  int i;
  float sum;

  int global_row_id = offset + (by + 1) * BLOCK_SIZE;
  int global_col_id = offset + (bx + 1) * BLOCK_SIZE;

  peri_row[ty * BLOCK_SIZE + tx] = m[(offset + ty) * matrix_dim + global_col_id + tx];
  peri_col[ty * BLOCK_SIZE + tx] = m[(global_row_id + ty) * matrix_dim + offset + tx];
  kc.barrier();

  sum = 0;
  for (i = 0; i < BLOCK_SIZE; i++)
    sum += peri_col[ty * BLOCK_SIZE + i] * peri_row[i * BLOCK_SIZE + tx];
  m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}

FERRY_COMPUTE void lud(ferry::ComputeContext &cc, std::vector<float> &m, int matrix_dim) {
  ferry::Buffer<float> d_m(matrix_dim * matrix_dim);
  std::copy(m.begin(), m.end(), d_m.begin());
  const int tile = BLOCK_SIZE * BLOCK_SIZE;

  int i = 0;
  for (i = 0; i < matrix_dim - BLOCK_SIZE; i += BLOCK_SIZE) {
    cc.dispatch(lud_diagonal, ferry::Range(BLOCK_SIZE, 1).local(BLOCK_SIZE, 1), d_m,
                ferry::localSpan<float>(tile), matrix_dim, i);

    const int blocks = (matrix_dim - i) / BLOCK_SIZE - 1;
    if (BLOCK_SIZE * 2 * blocks > 0)
      cc.dispatch(lud_perimeter, ferry::Range(BLOCK_SIZE * 2 * blocks, 1).local(BLOCK_SIZE * 2, 1),
                  d_m, ferry::localSpan<float>(tile), ferry::localSpan<float>(tile),
                  ferry::localSpan<float>(tile), matrix_dim, i);

    if (BLOCK_SIZE * blocks > 0)
      cc.dispatch(lud_internal,
                  ferry::Range(BLOCK_SIZE * blocks, BLOCK_SIZE * blocks).local(BLOCK_SIZE, BLOCK_SIZE),
                  d_m, ferry::localSpan<float>(tile), ferry::localSpan<float>(tile), matrix_dim, i);
  }
  cc.dispatch(lud_diagonal, ferry::Range(BLOCK_SIZE, 1).local(BLOCK_SIZE, 1), d_m,
              ferry::localSpan<float>(tile), matrix_dim, i);

  std::copy(d_m.begin(), d_m.end(), m.begin());
}

int main(int argc, char **argv) {
  const int matrix_dim = argc > 1 ? std::atoi(argv[1]) : 64;
  if (matrix_dim <= 0 || matrix_dim % BLOCK_SIZE != 0) {
    std::printf("the matrix dimension must be a multiple of %d\n", BLOCK_SIZE);
    return 1;
  }
  const int n = matrix_dim;
  // L: unit lower, entries -1 .. 1; U: upper, entries -1 .. 1, diagonal 1 or 2.
  std::vector<int> L(n * n, 0), U(n * n, 0);
  unsigned seed = 11;
  auto next = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return static_cast<int>((seed >> 16) % 3) - 1;
  };
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      if (c < r)
        L[r * n + c] = next();
      else if (c == r) {
        L[r * n + c] = 1;
        U[r * n + c] = 1 + (next() != 0);
      } else
        U[r * n + c] = next();
    }
  std::vector<float> m(n * n);
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      int sum = 0;
      for (int k = 0; k < n; k++)
        sum += L[r * n + k] * U[k * n + c];
      m[r * n + c] = static_cast<float>(sum);
    }

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { lud(cc, m, matrix_dim); });

  long long check = 0;
  bool factors = true;
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      const float got = m[r * n + c];
      check = (check * 31 + static_cast<long long>(got)) % 1000000007;
      factors = factors && got == static_cast<float>(c < r ? L[r * n + c] : U[r * n + c]);
    }
  std::printf("lud %d: %.0f %.0f %.0f %.0f ... check=%lld\n", n, m[0], m[1], m[n], m[n + 1], check);
  std::printf("the factors are L and U: %s\n", factors ? "yes" : "no");
}
