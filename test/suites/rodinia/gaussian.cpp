// Rodinia gaussian (Gaussian elimination), OpenCL version, written anew in
// Ferry's dialect. Original: github.com/yuhc/gpu-rodinia, opencl/gaussian/
// gaussianElim.cpp (main, ForwardSub, BackSub, InitPerRun, create_matrix)
// and gaussianElim_kernels.cl (Fan1, Fan2).
//
// The matrix, right-hand side and multipliers are malloc'd float arrays;
// ForwardSub uploads all three, runs Fan1 (1-D, the multipliers of column
// t, through pointer arithmetic as in the original) and Fan2 (2-D, the
// update of rows below t and of b) for t = 0 .. size - 2, and reads all
// three back; BackSub solves on the host. The matrix is generated as in
// the original's create_matrix (a Toeplitz matrix of 10 * exp(-0.01 * |i -
// j|)... here with a simpler decay, 8 / (1 + |i - j|)), b all ones.
//
//   gaussian [SIZE]
//
// Bytes the ORIGINAL host code moves at size 64 (floats):
//   clEnqueueWriteBuffer a_dev 64*64*4 = 16384, b_dev 256, m_dev 16384
//   clEnqueueReadBuffer  a_dev 16384, b_dev 256, m_dev 16384
//   in 3 (33024 B), out 3 (33024 B).
// Whole-buffer optimum: a and b are host-written and read by the kernels:
// in 2. m is zeroed by the host and Fan1 writes only one column below the
// diagonal per step; the host reads all of m at the end, so the zeros must
// reach the device copy, or m be copied in: in 1. The host reads a, b and
// m: out 3.
//   in 3 (33024 B), out 3 (33024 B), 2 x 63 = 126 dispatches: the original.
// suite-original: to_device 3 to_device_bytes 33024 from_device 3 from_device_bytes 33024
// ferry-test: args 64
// ferry-test: to_device 3 to_device_bytes 33024 from_device 3 from_device_bytes 33024
// ferry-test: dispatches 126
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

FERRY_KERNEL void Fan1(ferry::KernelContext kc, float *m_dev, float *a_dev, float *b_dev,
                       const int size, const int t) {
  (void)b_dev;
  int globalId = kc.x;
  if (globalId < size - 1 - t) {
    *(m_dev + size * (globalId + t + 1) + t) =
        *(a_dev + size * (globalId + t + 1) + t) / *(a_dev + size * t + t);
  }
}

FERRY_KERNEL void Fan2(ferry::KernelContext kc, float *m_dev, float *a_dev, float *b_dev,
                       const int size, const int t) {
  int globalIdx = kc.x;
  int globalIdy = kc.y;
  if (globalIdx < size - 1 - t && globalIdy < size - t) {
    a_dev[size * (globalIdx + 1 + t) + (globalIdy + t)] -=
        m_dev[size * (globalIdx + 1 + t) + t] * a_dev[size * t + (globalIdy + t)];
    if (globalIdy == 0) {
      b_dev[globalIdx + 1 + t] -= m_dev[size * (globalIdx + 1 + t) + (globalIdy + t)] * b_dev[t];
    }
  }
}

FERRY_COMPUTE void ForwardSub(ferry::ComputeContext &cc, float *a, float *b, float *m,
                              int size) {
  ferry::Buffer<float> a_dev(size * size);
  ferry::Buffer<float> b_dev(size);
  ferry::Buffer<float> m_dev(size * size);
  std::copy(a, a + size * size, a_dev.begin());
  std::copy(b, b + size, b_dev.begin());
  std::copy(m, m + size * size, m_dev.begin());

  int globalWorksizeFan1 = size;
  int globalWorksizeFan2[2] = {size, size};
  int t;
  for (t = 0; t < (size - 1); t++) {
    cc.dispatch(Fan1, ferry::Range(globalWorksizeFan1), m_dev, a_dev, b_dev, size, t);
    cc.dispatch(Fan2, ferry::Range(globalWorksizeFan2[0], globalWorksizeFan2[1]), m_dev, a_dev,
                b_dev, size, t);
  }
  std::copy(a_dev.begin(), a_dev.end(), a);
  std::copy(b_dev.begin(), b_dev.end(), b);
  std::copy(m_dev.begin(), m_dev.end(), m);
}

void InitPerRun(int size, float *m) {
  for (int i = 0; i < size * size; i++)
    *(m + i) = 0.0;
}

void BackSub(float *a, float *b, float *finalVec, int size) {
  for (int i = 0; i < size; i++) {
    finalVec[size - i - 1] = b[size - i - 1];
    for (int j = 0; j < i; j++)
      finalVec[size - i - 1] -= *(a + size * (size - i - 1) + (size - j - 1)) * finalVec[size - j - 1];
    finalVec[size - i - 1] = finalVec[size - i - 1] / *(a + size * (size - i - 1) + (size - i - 1));
  }
}

void create_matrix(float *m, int size) {
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++) {
      int d = i > j ? i - j : j - i;
      m[i * size + j] = 8.0f / static_cast<float>(1 + d);
    }
}

int main(int argc, char **argv) {
  int size = argc > 1 ? std::atoi(argv[1]) : 64;
  float *a = (float *)std::malloc(size * size * sizeof(float));
  create_matrix(a, size);
  float *b = (float *)std::malloc(size * sizeof(float));
  for (int i = 0; i < size; i++)
    b[i] = 1.0;
  float *m = (float *)std::malloc(size * size * sizeof(float));
  float *finalVec = (float *)std::malloc(size * sizeof(float));
  InitPerRun(size, m);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { ForwardSub(cc, a, b, m, size); });
  BackSub(a, b, finalVec, size);
  std::printf("gaussian %d\n", size);
  printApprox("a", a, size * size);
  printApprox("b", b, size);
  printApprox("m", m, size * size);
  printApprox("x", finalVec, size);
  std::free(m);
  std::free(a);
  std::free(b);
  std::free(finalVec);
}
