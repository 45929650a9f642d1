#pragma once
// rodinia/hotspot.cpp split into four Ferry sources (issue 23): this header
// holds its constants and kernel (`inline`: the sources include it) and
// declares what solver.cpp and output.cpp define.
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#define BLOCK_SIZE 16
#define STR_SIZE 256
#define EXPAND_RATE 2
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))

const static float t_chip = 0.0005f;
const static float chip_height = 0.016f;
const static float chip_width = 0.016f;

FERRY_KERNEL inline void hotspot(ferry::KernelContext kc, int iteration, float *power,
                          float *temp_src, float *temp_dst, int grid_cols,
                          int grid_rows, int border_cols, int border_rows,
                          float Cap, float Rx, float Ry, float Rz, float step) {
  float amb_temp = 80.0f;
  float step_div_Cap;
  float Rx_1, Ry_1, Rz_1;

  int bx = kc.x / BLOCK_SIZE;
  int by = kc.y / BLOCK_SIZE;
  int tx = kc.x % BLOCK_SIZE;
  int ty = kc.y % BLOCK_SIZE;

  step_div_Cap = step / Cap;
  Rx_1 = 1 / Rx;
  Ry_1 = 1 / Ry;
  Rz_1 = 1 / Rz;

  int small_block_rows = BLOCK_SIZE - iteration * 2;
  int small_block_cols = BLOCK_SIZE - iteration * 2;

  int blkY = small_block_rows * by - border_rows;
  int blkX = small_block_cols * bx - border_cols;
  int blkYmax = blkY + BLOCK_SIZE - 1;
  int blkXmax = blkX + BLOCK_SIZE - 1;

  int yidx = blkY + ty;
  int xidx = blkX + tx;

  int loadYidx = yidx, loadXidx = xidx;
  int index = grid_cols * loadYidx + loadXidx;

  int validYmin = (blkY < 0) ? -blkY : 0;
  int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1)
                                            : BLOCK_SIZE - 1;
  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1)
                                            : BLOCK_SIZE - 1;

  int N = ty - 1;
  int S = ty + 1;
  int W = tx - 1;
  int E = tx + 1;

  N = (N < validYmin) ? validYmin : N;
  S = (S > validYmax) ? validYmax : S;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;

  // One step (iteration == 1): the tile's cells are read from temp_src at
  // their global positions instead of from local memory.
  if (IN_RANGE(tx, 1, BLOCK_SIZE - 2) && IN_RANGE(ty, 1, BLOCK_SIZE - 2) &&
      IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
    float centre = temp_src[index];
    float north = temp_src[grid_cols * (blkY + N) + xidx];
    float south = temp_src[grid_cols * (blkY + S) + xidx];
    float west = temp_src[grid_cols * yidx + (blkX + W)];
    float east = temp_src[grid_cols * yidx + (blkX + E)];
    temp_dst[index] = centre + step_div_Cap * (power[index] +
                      (south + north - 2.0f * centre) * Ry_1 +
                      (east + west - 2.0f * centre) * Rx_1 +
                      (amb_temp - centre) * Rz_1);
  }
}

// solver.cpp: the launch loop, which dispatches. Its buffers come in an
// array of two buffer pointers, swapped by index.
int compute_tran_temp(ferry::ComputeContext &cc, ferry::Buffer<float> &MatrixPower,
                      ferry::Buffer<float> *MatrixTemp[2], int col, int row,
                      int total_iterations, int num_iterations, int blockCols,
                      int blockRows, int borderCols, int borderRows);
// output.cpp: prints the result.
void writeoutput(const ferry::Buffer<float> &vect, int grid_rows, int grid_cols);
