// rodinia/hotspot.cpp's launch loop, in a Ferry source of its own: main.cpp's
// run calls it, so the target plans it as a callee of a planned function
// that leaves both temperature buffers on the device for run, as the
// one-file form does.
#include "hotspot.h"

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
