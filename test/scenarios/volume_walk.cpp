// Issue 16 (Rodinia hotspot3D, 1.33x the hand-written bytes): the kernel
// marches through a volume plane by plane, `int c = i + j * nx;`, storing
// `out[c]` and stepping `c += xy` (`xy = nx * ny`) once before a loop over
// the middle planes, once per iteration and once after. Every plane from 0
// to nz - 1 is stored, so the output needs no copy in when the range covers
// a whole plane; the launch says how many planes (`ferry::volume`), and the
// runtime copies in first when the range's rows fall short of ny.
//
// By hand (5 x 4 x 3 ints = 240 B each): power and temp in (2), scratch
// none in the loop. Then the host overwrites scratch and a dispatch over
// ny - 1 rows leaves part of it alone: scratch in (1). The host reads
// scratch (out 1); temp goes back to the caller (out 1).
// In 3 (720 B), out 2 (480 B).
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 720 from_device 2 from_device_bytes 480
// ferry-test: dispatches 5
#include "Print.h"

#include <algorithm>

FERRY_KERNEL void stencil3d(ferry::KernelContext kc, const int *p,
                            const int *tIn, int *tOut, int nx, int ny,
                            int nz) {
  int i = kc.x;
  int j = kc.y;
  int c = i + j * nx;
  int xy = nx * ny;
  int w = (i == 0) ? c : c - 1;
  int e = (i == nx - 1) ? c : c + 1;
  tOut[c] = (p[c] + tIn[w] + tIn[e] + tIn[c + xy]) & 0xFFFF;
  c += xy;
  w += xy;
  e += xy;
  for (int k = 1; k < nz - 1; ++k) {
    tOut[c] = (p[c] + tIn[w] + tIn[e] + tIn[c - xy] + tIn[c + xy]) & 0xFFFF;
    c += xy;
    w += xy;
    e += xy;
  }
  tOut[c] = (p[c] + tIn[w] + tIn[e] + tIn[c - xy]) & 0xFFFF;
  return;
}

FERRY_COMPUTE void simulate(ferry::ComputeContext &cc,
                            const ferry::Buffer<int> &power,
                            ferry::Buffer<int> &temp, int nx, int ny, int nz,
                            int iterations) {
  ferry::Buffer<int> scratch(temp.size());
  for (int it = 0; it < iterations; ++it) {
    cc.dispatch(stencil3d, ferry::Range(nx, ny), power, temp, scratch, nx, ny,
                nz);
    cc.dispatch(stencil3d, ferry::Range(nx, ny), power, scratch, temp, nx, ny,
                nz);
  }
  std::fill(scratch.begin(), scratch.end(), 7);
  cc.dispatch(stencil3d, ferry::Range(nx, ny - 1), power, temp, scratch, nx,
              ny, nz);
  printBuffer("scratch", scratch);
}

int main() {
  const int nx = 5, ny = 4, nz = 3;
  ferry::Buffer<int> power(nx * ny * nz), temp(nx * ny * nz);
  for (int e = 0; e < nx * ny * nz; ++e) {
    power[e] = e % 9;
    temp[e] = 20 + e % 4;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    simulate(cc, power, temp, nx, ny, nz, 2);
  });
  printBuffer("temp", temp);
}
