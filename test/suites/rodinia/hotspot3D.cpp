// Rodinia hotspot3D (3-D thermal simulation), OpenCL version, written anew
// in Ferry's dialect. Original: github.com/yuhc/gpu-rodinia,
// opencl/hotspot3D/3D.c (host), hotspotKernel.cl (hotspotOpt1) and
// CL_helper.c (computeTempCPU, accuracy).
//
// Same kernel: one work-item per (i, j) column walking the layers with
// c += xy. Same host: calloc'd / malloc'd arrays, the three uploads (the
// zeroed output too), the iteration loop swapping the cl_mem handles
// (Buffer pointers here) through a temporary, then the read back of d_c,
// which after the final swap is the buffer the last step read, not the one
// it wrote (as in the original), the CPU reference computeTempCPU and the
// accuracy. The power and temperature files are generated.
//
//   hotspot3D [N LAYERS ITERATIONS]
//
// Bytes the ORIGINAL host code moves at 32 x 32 x 8, 5 iterations
// (8192 floats = 32768 B a volume):
//   clEnqueueWriteBuffer d_a (tIn), d_b (pIn), d_c (tempOut): 3 x 32768
//   clEnqueueReadBuffer d_c 32768
//   in 3 (98304 B), out 1 (32768 B).
// Whole-buffer optimum: tIn and pIn are read by step 1: in 2. The third
// volume is written whole by step 1 (every column, every layer) before it
// is read: no copy. After 5 (odd) steps d_c is the volume steps 2 and 4
// wrote: out 1.
//   in 2 (65536 B), out 1 (32768 B), 5 dispatches.
// suite-original: to_device 3 to_device_bytes 98304 from_device 1 from_device_bytes 32768
// ferry-test: args 32 8 5
// ferry-test: to_device 2 to_device_bytes 65536 from_device 1 from_device_bytes 32768
// ferry-test: dispatches 5
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#define TOL (0.001)
#define STR_SIZE (256)
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5
#define WG_SIZE_X (64)
#define WG_SIZE_Y (4)

float t_chip = 0.0005;
float chip_height = 0.016;
float chip_width = 0.016;
float amb_temp = 80.0;

FERRY_KERNEL void hotspotOpt1(ferry::KernelContext kc, float *p, float *tIn, float *tOut,
                              float sdc, int nx, int ny, int nz, float ce, float cw, float cn,
                              float cs, float ct, float cb, float cc) {
  float amb_temp = 80.0;

  int i = kc.x;
  int j = kc.y;
  int c = i + j * nx;
  int xy = nx * ny;

  int W = (i == 0) ? c : c - 1;
  int E = (i == nx - 1) ? c : c + 1;
  int N = (j == 0) ? c : c - nx;
  int S = (j == ny - 1) ? c : c + nx;

  float temp1, temp2, temp3;
  temp1 = temp2 = tIn[c];
  temp3 = tIn[c + xy];
  tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 +
            ct * temp3 + sdc * p[c] + ct * amb_temp;
  c += xy;
  W += xy;
  E += xy;
  N += xy;
  S += xy;

  for (int k = 1; k < nz - 1; ++k) {
    temp1 = temp2;
    temp2 = temp3;
    temp3 = tIn[c + xy];
    tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 +
              ct * temp3 + sdc * p[c] + ct * amb_temp;
    c += xy;
    W += xy;
    E += xy;
    N += xy;
    S += xy;
  }
  temp1 = temp2;
  temp2 = temp3;
  tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 +
            ct * temp3 + sdc * p[c] + ct * amb_temp;
  return;
}

void computeTempCPU(float *pIn, float *tIn, float *tOut, int nx, int ny, int nz, float Cap,
                    float Rx, float Ry, float Rz, float dt, float amb_temp, int numiter) {
  float ce, cw, cn, cs, ct, cb, cc;
  float stepDivCap = dt / Cap;
  ce = cw = stepDivCap / Rx;
  cn = cs = stepDivCap / Ry;
  ct = cb = stepDivCap / Rz;
  cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);
  int c, w, e, n, s, b, t;
  int x, y, z;
  int i = 0;
  do {
    for (z = 0; z < nz; z++)
      for (y = 0; y < ny; y++)
        for (x = 0; x < nx; x++) {
          c = x + y * nx + z * nx * ny;
          w = (x == 0) ? c : c - 1;
          e = (x == nx - 1) ? c : c + 1;
          n = (y == 0) ? c : c - nx;
          s = (y == ny - 1) ? c : c + nx;
          b = (z == 0) ? c : c - nx * ny;
          t = (z == nz - 1) ? c : c + nx * ny;
          tOut[c] = tIn[c] * cc + tIn[n] * cn + tIn[s] * cs + tIn[e] * ce + tIn[w] * cw +
                    tIn[t] * ct + tIn[b] * cb + (dt / Cap) * pIn[c] + ct * amb_temp;
        }
    float *temp = tIn;
    tIn = tOut;
    tOut = temp;
    i++;
  } while (i < numiter);
}

float accuracy(float *arr1, float *arr2, int len) {
  float err = 0.0;
  for (int i = 0; i < len; i++)
    err += (arr1[i] - arr2[i]) * (arr1[i] - arr2[i]);
  return (float)std::sqrt(err / len);
}

FERRY_COMPUTE void hotspot3D(ferry::ComputeContext &cc_, float *tIn, float *pIn, float *tempOut,
                             int numCols, int numRows, int layers, int iterations,
                             float stepDivCap, float ce, float cw, float cn, float cs, float ct,
                             float cb, float cc) {
  int count = numCols * numRows * layers;
  ferry::Buffer<float> a(count), b(count), c(count);
  ferry::Buffer<float> *d_a = &a;
  ferry::Buffer<float> *d_b = &b;
  ferry::Buffer<float> *d_c = &c;
  std::copy(tIn, tIn + count, d_a->begin());
  std::copy(pIn, pIn + count, d_b->begin());
  std::copy(tempOut, tempOut + count, d_c->begin());
  for (int j = 0; j < iterations; j++) {
    cc_.dispatch(hotspotOpt1, ferry::Range(numCols, numRows), *d_b, *d_a, *d_c, stepDivCap,
                 numCols, numRows, layers, ce, cw, cn, cs, ct, cb, cc);
    ferry::Buffer<float> *temp = d_a;
    d_a = d_c;
    d_c = temp;
  }
  std::copy(d_c->begin(), d_c->end(), tempOut);
}

int main(int argc, char **argv) {
  int numCols = argc > 1 ? std::atoi(argv[1]) : 32;
  int numRows = numCols;
  int layers = argc > 2 ? std::atoi(argv[2]) : 8;
  int iterations = argc > 3 ? std::atoi(argv[3]) : 5;

  float dx = chip_height / numRows;
  float dy = chip_width / numCols;
  float dz = t_chip / layers;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * dx * dy;
  float Rx = dy / (2.0 * K_SI * t_chip * dx);
  float Ry = dx / (2.0 * K_SI * t_chip * dy);
  float Rz = dz / (K_SI * dx * dy);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float dt = PRECISION / max_slope;
  float ce, cw, cn, cs, ct, cb, cc;
  float stepDivCap = dt / Cap;
  ce = cw = stepDivCap / Rx;
  cn = cs = stepDivCap / Ry;
  ct = cb = stepDivCap / Rz;
  cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);

  int size = numCols * numRows * layers;
  float *tIn = (float *)std::calloc(size, sizeof(float));
  float *pIn = (float *)std::calloc(size, sizeof(float));
  float *tempCopy = (float *)std::malloc(size * sizeof(float));
  float *tempOut = (float *)std::calloc(size, sizeof(float));
  for (int i = 0; i < size; i++) { // readinput() of the two files
    tIn[i] = 320.0f + static_cast<float>((i * 7) % 11);
    pIn[i] = 0.0005f * static_cast<float>((i * 3) % 7);
  }
  std::memcpy(tempCopy, tIn, size * sizeof(float));

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc_) {
    hotspot3D(cc_, tIn, pIn, tempOut, numCols, numRows, layers, iterations, stepDivCap, ce, cw,
              cn, cs, ct, cb, cc);
  });

  float *answer = (float *)std::calloc(size, sizeof(float));
  computeTempCPU(pIn, tempCopy, answer, numCols, numRows, layers, Cap, Rx, Ry, Rz, dt, amb_temp,
                 iterations);
  float acc_ = accuracy(tempOut, answer, numRows * numCols * layers);
  std::printf("hotspot3D %dx%dx%d, %d iterations\nAccuracy:", numCols, numRows, layers,
              iterations);
  printRounded(acc_);
  std::printf("\n");
  printApprox("tempOut", tempOut, size);
  std::free(tIn);
  std::free(pIn);
  std::free(tempCopy);
  std::free(tempOut);
  std::free(answer);
}
