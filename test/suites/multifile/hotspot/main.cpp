// rodinia/hotspot.cpp as a target of four Ferry sources (issue 23):
// hotspot.h (constants, kernel), solver.cpp (compute_tran_temp),
// output.cpp (writeoutput) and this file (run, main). It must move exactly
// the bytes of the one-file form, worked out there and repeated here:
// ferry-multifile: one-file rodinia/hotspot.cpp
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
#include "hotspot.h"

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
