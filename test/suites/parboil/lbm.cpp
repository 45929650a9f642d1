// Parboil lbm (lattice-Boltzmann, D3Q19, lid-driven cavity), OpenCL base
// version, written anew in Ferry's dialect. Original: github.com/abduld/
// Parboil, benchmarks/lbm/src/opencl_base/main.c (time-step loop), lbm.c
// (grid set-up, OpenCL_LBM_performStreamCollide, LBM_swapGrids, transfers),
// kernel.cl (performStreamCollide_kernel), layout_config.h and lbm_macros.h.
//
// Each cell holds 19 distribution values and a flags entry (20 floats, the
// original's layout with its padding and 2-plane margins). Every time step
// one dispatch streams and collides (the GATHER variant: each cell pulls
// from its neighbours and writes its own 19 values), then the two grids
// swap by pointer. The range is the original's: SIZE_X * SIZE_Y items by
// SIZE_Z, with x = id % SIZE_X and y = id / SIZE_X standing in for the
// local and group ids. Differences: the flags entry holds the flag's value
// as a float (the original stores the bits and reads them with as_uint);
// every cell starts at the equilibrium weights (the original's GATHER
// macros shift that set-up by one cell at the far edges); the grid is 16^3
// instead of 120 x 120 x 150; the second grid is local to the compute
// function and, after an odd number of steps, copied back into the
// caller's (the original reads back whichever holds the result).
//
//   lbm [STEPS]
//
// Bytes the ORIGINAL host code moves with SIZE 16^3 (padded 24 x 16 x 20
// cells of 20 floats: 7680 * 80 = 614400 B a grid), 5 steps:
//   OpenCL_LBM_initializeGrid srcGrid, dstGrid  2 x 614400  (writes)
//   OpenCL_LBM_getDeviceGrid  srcGrid               614400  (read)
//   in 2 (1228800 B), out 1 (614400 B).
// Whole-buffer optimum: step 1 reads the caller's grid (host-written): in
// (1); it writes the 19 distribution values of the interior cells of the
// other grid, whose flags, padding and margins later steps read: in (1).
// After 5 (odd) steps the result is in the local grid; std::copy reads it
// (out 1) and overwrites all of the caller's grid on the host.
//   in 2 (1228800 B), out 1 (614400 B), 5 dispatches: equal to the original.
// suite-original: to_device 2 to_device_bytes 1228800 from_device 1 from_device_bytes 614400
// ferry-test: args 5
// ferry-test: to_device 2 to_device_bytes 1228800 from_device 1 from_device_bytes 614400
// ferry-test: dispatches 5
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

constexpr int SIZE_X = 16, SIZE_Y = 16, SIZE_Z = 16;
constexpr int PADDING_X = 8, PADDING_Y = 0, PADDING_Z = 4;
constexpr int PADDED_X = SIZE_X + PADDING_X;
constexpr int PADDED_Y = SIZE_Y + PADDING_Y;
constexpr int PADDED_Z = SIZE_Z + PADDING_Z;
constexpr int TOTAL_PADDED_CELLS = PADDED_X * PADDED_Y * PADDED_Z;

// The entries of a cell: the 19 directions, then the flags.
enum CellEntry {
  C = 0, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB, FLAGS,
  N_CELL_ENTRIES
};
enum CellFlag { OBSTACLE = 1 << 0, ACCEL = 1 << 1 };

constexpr float OMEGA = 1.95f;
constexpr float DFL1 = 1.0f / 3.0f;
constexpr float DFL2 = 1.0f / 18.0f;
constexpr float DFL3 = 1.0f / 36.0f;

// The original's CALC_INDEX: a 3-D array of 20-float cells.
inline int calcIndex(int x, int y, int z, int e) {
  return e + N_CELL_ENTRIES * (x + y * PADDED_X + z * PADDED_X * PADDED_Y);
}
// The grid starts two z-planes into its buffer.
constexpr int MARGIN = 2 * N_CELL_ENTRIES * PADDED_X * PADDED_Y;

FERRY_KERNEL void performStreamCollide_kernel(ferry::KernelContext kc, const float *srcBase,
                                              float *dstBase) {
  const float *src = srcBase + MARGIN;
  float *dst = dstBase + MARGIN;
  const int x = kc.x % SIZE_X; // the original's local id
  const int y = kc.x / SIZE_X; // and group ids
  const int z = kc.y;
  // GATHER: each direction comes from the neighbour it streams out of.
  float tempC = src[calcIndex(x, y, z, C)];
  float tempN = src[calcIndex(x, y - 1, z, N)];
  float tempS = src[calcIndex(x, y + 1, z, S)];
  float tempE = src[calcIndex(x - 1, y, z, E)];
  float tempW = src[calcIndex(x + 1, y, z, W)];
  float tempT = src[calcIndex(x, y, z - 1, T)];
  float tempB = src[calcIndex(x, y, z + 1, B)];
  float tempNE = src[calcIndex(x - 1, y - 1, z, NE)];
  float tempNW = src[calcIndex(x + 1, y - 1, z, NW)];
  float tempSE = src[calcIndex(x - 1, y + 1, z, SE)];
  float tempSW = src[calcIndex(x + 1, y + 1, z, SW)];
  float tempNT = src[calcIndex(x, y - 1, z - 1, NT)];
  float tempNB = src[calcIndex(x, y - 1, z + 1, NB)];
  float tempST = src[calcIndex(x, y + 1, z - 1, ST)];
  float tempSB = src[calcIndex(x, y + 1, z + 1, SB)];
  float tempET = src[calcIndex(x - 1, y, z - 1, ET)];
  float tempEB = src[calcIndex(x - 1, y, z + 1, EB)];
  float tempWT = src[calcIndex(x + 1, y, z - 1, WT)];
  float tempWB = src[calcIndex(x + 1, y, z + 1, WB)];
  const int flags = static_cast<int>(src[calcIndex(x, y, z, FLAGS)]);
  if (flags & OBSTACLE) {
    // Reflect any fluid coming into this cell back to where it came from.
    float t;
    t = tempN; tempN = tempS; tempS = t;
    t = tempE; tempE = tempW; tempW = t;
    t = tempT; tempT = tempB; tempB = t;
    t = tempNE; tempNE = tempSW; tempSW = t;
    t = tempNW; tempNW = tempSE; tempSE = t;
    t = tempNT; tempNT = tempSB; tempSB = t;
    t = tempNB; tempNB = tempST; tempST = t;
    t = tempET; tempET = tempWB; tempWB = t;
    t = tempEB; tempEB = tempWT; tempWT = t;
  } else {
    const float rho = tempC + tempN + tempS + tempE + tempW + tempT + tempB + tempNE +
                      tempNW + tempSE + tempSW + tempNT + tempNB + tempST + tempSB +
                      tempET + tempEB + tempWT + tempWB;
    float ux = +tempE - tempW + tempNE - tempNW + tempSE - tempSW + tempET + tempEB -
               tempWT - tempWB;
    float uy = +tempN - tempS + tempNE + tempNW - tempSE - tempSW + tempNT + tempNB -
               tempST - tempSB;
    float uz = +tempT - tempB + tempNT - tempNB + tempST - tempSB + tempET - tempEB +
               tempWT - tempWB;
    ux /= rho;
    uy /= rho;
    uz /= rho;
    if (flags & ACCEL) {
      ux = 0.005f;
      uy = 0.002f;
      uz = 0.000f;
    }
    const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz) - 1.0f;
    const float temp_base = OMEGA * rho;
    const float temp2 = 1.0f - OMEGA;
    float temp1 = DFL1 * temp_base;
    tempC = temp2 * tempC + temp1 * (-u2);
    temp1 = DFL2 * temp_base;
    tempN = temp2 * tempN + temp1 * (uy * (4.5f * uy + 3.0f) - u2);
    tempS = temp2 * tempS + temp1 * (uy * (4.5f * uy - 3.0f) - u2);
    tempT = temp2 * tempT + temp1 * (uz * (4.5f * uz + 3.0f) - u2);
    tempB = temp2 * tempB + temp1 * (uz * (4.5f * uz - 3.0f) - u2);
    tempE = temp2 * tempE + temp1 * (ux * (4.5f * ux + 3.0f) - u2);
    tempW = temp2 * tempW + temp1 * (ux * (4.5f * ux - 3.0f) - u2);
    temp1 = DFL3 * temp_base;
    tempNT = temp2 * tempNT + temp1 * ((+uy + uz) * (4.5f * (+uy + uz) + 3.0f) - u2);
    tempNB = temp2 * tempNB + temp1 * ((+uy - uz) * (4.5f * (+uy - uz) + 3.0f) - u2);
    tempST = temp2 * tempST + temp1 * ((-uy + uz) * (4.5f * (-uy + uz) + 3.0f) - u2);
    tempSB = temp2 * tempSB + temp1 * ((-uy - uz) * (4.5f * (-uy - uz) + 3.0f) - u2);
    tempNE = temp2 * tempNE + temp1 * ((+ux + uy) * (4.5f * (+ux + uy) + 3.0f) - u2);
    tempSE = temp2 * tempSE + temp1 * ((+ux - uy) * (4.5f * (+ux - uy) + 3.0f) - u2);
    tempET = temp2 * tempET + temp1 * ((+ux + uz) * (4.5f * (+ux + uz) + 3.0f) - u2);
    tempEB = temp2 * tempEB + temp1 * ((+ux - uz) * (4.5f * (+ux - uz) + 3.0f) - u2);
    tempNW = temp2 * tempNW + temp1 * ((-ux + uy) * (4.5f * (-ux + uy) + 3.0f) - u2);
    tempSW = temp2 * tempSW + temp1 * ((-ux - uy) * (4.5f * (-ux - uy) + 3.0f) - u2);
    tempWT = temp2 * tempWT + temp1 * ((-ux + uz) * (4.5f * (-ux + uz) + 3.0f) - u2);
    tempWB = temp2 * tempWB + temp1 * ((-ux - uz) * (4.5f * (-ux - uz) + 3.0f) - u2);
  }
  dst[calcIndex(x, y, z, C)] = tempC;
  dst[calcIndex(x, y, z, N)] = tempN;
  dst[calcIndex(x, y, z, S)] = tempS;
  dst[calcIndex(x, y, z, E)] = tempE;
  dst[calcIndex(x, y, z, W)] = tempW;
  dst[calcIndex(x, y, z, T)] = tempT;
  dst[calcIndex(x, y, z, B)] = tempB;
  dst[calcIndex(x, y, z, NE)] = tempNE;
  dst[calcIndex(x, y, z, NW)] = tempNW;
  dst[calcIndex(x, y, z, SE)] = tempSE;
  dst[calcIndex(x, y, z, SW)] = tempSW;
  dst[calcIndex(x, y, z, NT)] = tempNT;
  dst[calcIndex(x, y, z, NB)] = tempNB;
  dst[calcIndex(x, y, z, ST)] = tempST;
  dst[calcIndex(x, y, z, SB)] = tempSB;
  dst[calcIndex(x, y, z, ET)] = tempET;
  dst[calcIndex(x, y, z, EB)] = tempEB;
  dst[calcIndex(x, y, z, WT)] = tempWT;
  dst[calcIndex(x, y, z, WB)] = tempWB;
}

// The original's launch wrapper.
void OpenCL_LBM_performStreamCollide(ferry::ComputeContext &cc, ferry::Buffer<float> &srcGrid,
                                     ferry::Buffer<float> &dstGrid) {
  cc.dispatch(performStreamCollide_kernel, ferry::Range(SIZE_X * SIZE_Y, SIZE_Z), srcGrid,
              dstGrid);
}

FERRY_COMPUTE void lbm(ferry::ComputeContext &cc, ferry::Buffer<float> &grid, int nTimeSteps) {
  ferry::Buffer<float> other(grid.size());
  std::copy(grid.begin(), grid.end(), other.begin()); // both start alike
  ferry::Buffer<float> *srcGrid = &grid;
  ferry::Buffer<float> *dstGrid = &other;
  for (int t = 1; t <= nTimeSteps; t++) {
    OpenCL_LBM_performStreamCollide(cc, *srcGrid, *dstGrid);
    std::swap(srcGrid, dstGrid); // LBM_swapGrids
  }
  // After an odd number of steps the latest grid is the local one.
  if (nTimeSteps % 2 == 1)
    std::copy(other.begin(), other.end(), grid.begin());
}

int main(int argc, char **argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 5;
  ferry::Buffer<float> grid(TOTAL_PADDED_CELLS * N_CELL_ENTRIES);
  const float weights[19] = {DFL1, DFL2, DFL2, DFL2, DFL2, DFL2, DFL2, DFL3, DFL3, DFL3,
                             DFL3, DFL3, DFL3, DFL3, DFL3, DFL3, DFL3, DFL3, DFL3};
  // Lid-driven cavity: walls are obstacles, the layer under the lid is driven.
  for (int z = 0; z < SIZE_Z; z++)
    for (int y = 0; y < SIZE_Y; y++)
      for (int x = 0; x < SIZE_X; x++) {
        for (int e = 0; e < FLAGS; e++)
          grid[MARGIN + calcIndex(x, y, z, e)] = weights[e];
        int flags = 0;
        if (x == 0 || x == SIZE_X - 1 || y == 0 || y == SIZE_Y - 1 || z == 0 || z == SIZE_Z - 1)
          flags = OBSTACLE;
        else if (z == SIZE_Z - 2 && x > 1 && x < SIZE_X - 2 && y > 1 && y < SIZE_Y - 2)
          flags = ACCEL;
        grid[MARGIN + calcIndex(x, y, z, FLAGS)] = static_cast<float>(flags);
      }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { lbm(cc, grid, steps); });
  // LBM_showGridStatistics: mass and velocity range over the fluid cells.
  double mass = 0.0, minU = 1e30, maxU = -1e30;
  int fluid = 0;
  for (int z = 0; z < SIZE_Z; z++)
    for (int y = 0; y < SIZE_Y; y++)
      for (int x = 0; x < SIZE_X; x++) {
        const float *cell = &grid[MARGIN + calcIndex(x, y, z, 0)];
        if (static_cast<int>(cell[FLAGS]) & OBSTACLE)
          continue;
        ++fluid;
        double rho = 0.0;
        for (int e = 0; e < FLAGS; e++)
          rho += cell[e];
        mass += rho;
        const double ux = (cell[E] - cell[W] + cell[NE] - cell[NW] + cell[SE] - cell[SW] +
                           cell[ET] + cell[EB] - cell[WT] - cell[WB]) / rho;
        minU = ux < minU ? ux : minU;
        maxU = ux > maxU ? ux : maxU;
      }
  std::printf("lbm: %dx%dx%d, %d steps, %d fluid cells\n", SIZE_X, SIZE_Y, SIZE_Z, steps, fluid);
  std::printf("mass %.6g ux min %.3g max %.3g\n", mass, minU * 1000.0, maxU * 1000.0);
  printApprox("grid", grid);
}
