// Rodinia hotspot (2-D thermal simulation), OpenCL version, written anew in
// Ferry's dialect. Original: github.com/yuhc/gpu-rodinia, opencl/hotspot/
// hotspot.c (host: main, compute_tran_temp), hotspot.h (constants) and
// hotspot_kernel.cl (hotspot).
//
// The original kernel is a "pyramid": each BLOCK_SIZE x BLOCK_SIZE
// work-group loads a tile (with a border of `iteration` cells) into local
// memory and runs `iteration` steps there, separated by barriers. Local
// memory and barriers are not implemented in Ferry yet, so this is the
// nearest race-free global-memory version: the same 2-D range of blocks,
// the same block / border / valid-range arithmetic (bx, tx, blkX, validXmin,
// N/S/E/W clamping, `computed`), one time step per dispatch (pyramid height
// 1, so iteration == 1 and the border is 1), reading the neighbours straight
// from temp_src instead of the local tile. The host keeps the original's
// structure: the two temperature buffers in an array `MatrixTemp[2]`, the
// launch loop in compute_tran_temp stepping t by num_iterations and swapping
// src/dst indices, which it returns; the caller prints MatrixTemp[ret].
// The inputs (files in the original) are generated into std::vectors and
// copied into the buffers.
//
//   hotspot [GRID PYRAMID_HEIGHT(=1) SIM_TIME]
//
// Bytes the ORIGINAL host code moves at a 64 x 64 grid, 20 steps:
//   MatrixTemp[0] created CL_MEM_USE_HOST_PTR from the temperatures: 16384
//   MatrixPower   created CL_MEM_USE_HOST_PTR from the powers:       16384
//   MatrixTemp[1] created empty: nothing
//   clEnqueueMapBuffer(MatrixTemp[ret], CL_MAP_READ):                16384
//   in 2 (32768 B), out 1 (16384 B).
// Whole-buffer optimum for this port: MatrixPower and MatrixTemp[0] are
// host-written and read by step 1: in 2. MatrixTemp[1] is written by step 1
// at every cell before any step reads it (the 5 x 5 blocks' 14 x 14
// interiors tile the grid, and every valid interior cell is computed),
// so it needs no copy. After 20 (even) steps the result is in MatrixTemp[0],
// which the host prints: out 1. The buffers are local to the compute
// function, so nothing else goes home.
//   in 2 (32768 B), out 1 (16384 B), 20 dispatches: equal to the original.
// optimum: to_device 2 to_device_bytes 32768 from_device 1 from_device_bytes 16384
// suite-original: to_device 2 to_device_bytes 32768 from_device 1 from_device_bytes 16384
// ferry-test: args 64 1 20
// Ferry: MatrixTemp[1], never written on the host, is filled (zero) for
// the first step's partial tile store: fills 1.
// (to_device counts the fills with the copies.)
// ferry-test: to_device 3 to_device_bytes 49152 from_device 1 from_device_bytes 16384
// ferry-test: fills 1 fill_bytes 16384
// ferry-test: dispatches 20
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

FERRY_KERNEL void hotspot(ferry::KernelContext kc, int iteration, float *power,
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

// Computes total_iterations steps, num_iterations per launch; returns the
// index of the buffer holding the result.
int compute_tran_temp(ferry::ComputeContext &cc, ferry::Buffer<float> &MatrixPower,
                      ferry::Buffer<float> *MatrixTemp[2], int col, int row,
                      int total_iterations, int num_iterations, int blockCols,
                      int blockRows, int borderCols, int borderRows) {
  float grid_height = chip_height / row;
  float grid_width = chip_width / col;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
  float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
  float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
  float Rz = t_chip / (K_SI * grid_height * grid_width);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float step = PRECISION / max_slope;
  int t;
  int src = 0, dst = 1;
  for (t = 0; t < total_iterations; t += num_iterations) {
    int iter = MIN(num_iterations, total_iterations - t);
    cc.dispatch(hotspot, ferry::Range(BLOCK_SIZE * blockCols, BLOCK_SIZE * blockRows),
                iter, MatrixPower, *MatrixTemp[src], *MatrixTemp[dst], col, row,
                borderCols, borderRows, Cap, Rx, Ry, Rz, step);
    src = 1 - src;
    dst = 1 - dst;
  }
  return src;
}

void writeoutput(const ferry::Buffer<float> &vect, int grid_rows, int grid_cols) {
  std::printf("hotspot %dx%d\n", grid_rows, grid_cols);
  printApprox("temp", vect);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, const std::vector<float> &FilesavingTemp,
                       const std::vector<float> &FilesavingPower, int grid_rows,
                       int grid_cols, int pyramid_height, int total_iterations) {
  int size = grid_rows * grid_cols;
  int borderCols = (pyramid_height)*EXPAND_RATE / 2;
  int borderRows = (pyramid_height)*EXPAND_RATE / 2;
  int smallBlockCol = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
  int smallBlockRow = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
  int blockCols = grid_cols / smallBlockCol + ((grid_cols % smallBlockCol == 0) ? 0 : 1);
  int blockRows = grid_rows / smallBlockRow + ((grid_rows % smallBlockRow == 0) ? 0 : 1);

  ferry::Buffer<float> temp1(size);
  ferry::Buffer<float> temp0(size);
  std::copy(FilesavingTemp.begin(), FilesavingTemp.end(), temp0.begin());
  ferry::Buffer<float> MatrixPower(size);
  std::copy(FilesavingPower.begin(), FilesavingPower.end(), MatrixPower.begin());
  ferry::Buffer<float> *MatrixTemp[2] = {&temp0, &temp1};

  int ret = compute_tran_temp(cc, MatrixPower, MatrixTemp, grid_cols, grid_rows,
                              total_iterations, pyramid_height, blockCols, blockRows,
                              borderCols, borderRows);
  writeoutput(*MatrixTemp[ret], grid_rows, grid_cols);
}

int main(int argc, char **argv) {
  const int grid = argc > 1 ? std::atoi(argv[1]) : 64;
  const int pyramid_height = argc > 2 ? std::atoi(argv[2]) : 1;
  const int total_iterations = argc > 3 ? std::atoi(argv[3]) : 20;
  if (pyramid_height != 1) {
    std::printf("this port runs one step per launch: pyramid height must be 1\n");
    return 1;
  }
  std::vector<float> temp(grid * grid), power(grid * grid);
  for (int i = 0; i < grid * grid; ++i) {
    temp[i] = 320.0f + static_cast<float>((i * 7) % 13);
    power[i] = 0.001f * static_cast<float>((i * 3) % 5);
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, temp, power, grid, grid, pyramid_height, total_iterations);
  });
}
