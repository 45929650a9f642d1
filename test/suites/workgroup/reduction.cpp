// SHOC Reduction (level 1, sum of an array), OpenCL version, written anew in
// Ferry's dialect. Original: github.com/vetter/shoc,
// src/opencl/level1/reduction/reduction.cl (reduce) and Reduction.cpp
// (RunBenchmark, runTest<T>, checkResults<T>).
//
// The original builds one kernel source twice, with FPTYPE float and then
// double, "because OpenCL doesn't support templated kernels"; here the
// kernel is a template, dispatched as reduce<float> and reduce<int> (the
// contract's atomics and exact sums favour int over double). Its scratch
// array is the original's `__local FPTYPE *sdata` argument sized by
// clSetKernelArg(reduce, 2, localWorkSize * sizeof(T), NULL): a
// ferry::LocalSpan<T> bound by ferry::localSpan<T>(localWorkSize). Each
// work-item sums two elements a grid apart (kc.groupX, kc.localSizeX,
// kc.groupsX), the group reduces sdata by halving with barriers, and
// work-item 0 stores the group's sum. The host is runTest<T>'s: the input
// filled with i % 3, uploaded once, `iters` launches of 64 groups (of 128
// work-items rather than the original's 256: the reference execution
// switches between a group's work-items at every barrier, and this keeps it
// near a second),
// one read back of the 64 partial sums, summed and checked on the host.
// (The no-local-memory fallback for devices with work-groups of 1 is not
// ported.) The sums are integers well below 2^24, so float sums are exact
// in any order.
//
//   reduction [ELEMENTS ITERATIONS]   (ELEMENTS a multiple of 256)
//
// Bytes the ORIGINAL host code moves for each type at 65536 elements of 4
// bytes: clEnqueueWriteBuffer d_idata 262144; clEnqueueReadBuffer d_odata
// 64*4 = 256. For float and int: in 2 (524288 B), out 2 (512 B).
// Whole-buffer optimum: the same. d_odata is written at every element
// (one per group) before the host reads it, so it needs no copy in; local
// memory is never transferred. Dispatches: 2 iterations x 2 types = 4.
// suite-original: to_device 2 to_device_bytes 524288 from_device 2 from_device_bytes 512
// ferry-test: args 65536 2
// optimum: to_device 2 to_device_bytes 524288 from_device 2 from_device_bytes 512
// Ferry: each d_odata is stored by work-item 0 of each group at the
// group's index, which Ferry does not prove covers it; never host-written,
// both are filled (zero) rather than copied: fills 2, no bytes on the
// bus. (to_device counts the fills with the copies.)
// ferry-test: to_device 4 to_device_bytes 524800 from_device 2 from_device_bytes 512
// ferry-test: fills 2 fill_bytes 512
// ferry-test: dispatches 4
#include "Print.h"

#include <cmath>
#include <cstdlib>
#include <vector>

template <typename T>
FERRY_KERNEL void reduce(ferry::KernelContext kc, const T *g_idata, T *g_odata,
                         ferry::LocalSpan<T> sdata, const unsigned int n) {
  const unsigned int tid = kc.localX;
  unsigned int i = (kc.groupX * (kc.localSizeX * 2)) + tid;
  const unsigned int gridSize = kc.localSizeX * 2 * kc.groupsX;
  const unsigned int blockSize = kc.localSizeX;

  sdata[tid] = 0;
  // Several elements per work-item, a grid apart.
  while (i < n) {
    sdata[tid] += g_idata[i] + g_idata[i + blockSize];
    i += gridSize;
  }
  kc.barrier();

  for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    kc.barrier();
  }

  if (tid == 0)
    g_odata[kc.groupX] = sdata[0];
}

template <class T>
bool checkResults(const T *devResult, const T *idata, const int numBlocks, const int size) {
  T devSum = 0;
  for (int i = 0; i < numBlocks; i++)
    devSum += devResult[i];
  T refSum = 0;
  for (int i = 0; i < size; i++)
    refSum += idata[i];
  const bool passed = devSum == refSum;
  std::printf("sum %.1f, host %.1f: Test %s\n", static_cast<double>(devSum),
              static_cast<double>(refSum), passed ? "Passed" : "Failed");
  return passed;
}

template <class T> void initialize(ferry::Buffer<T> &h_idata) {
  for (std::size_t i = 0; i < h_idata.size(); i++)
    h_idata[i] = static_cast<T>(i % 3);
}

FERRY_COMPUTE void runTests(ferry::ComputeContext &cc, int size, int iters) {
  const int localWorkSize = 128;
  const int numBlocks = 64;
  const int globalWorkSize = localWorkSize * numBlocks;

  std::printf("Reduction (float), %d items\n", size);
  ferry::Buffer<float> f_idata(size);
  ferry::Buffer<float> f_odata(numBlocks);
  initialize(f_idata);
  for (int m = 0; m < iters; m++)
    cc.dispatch(reduce<float>, ferry::Range(globalWorkSize).local(localWorkSize), f_idata,
                f_odata, ferry::localSpan<float>(localWorkSize), static_cast<unsigned>(size));
  checkResults(f_odata.data(), f_idata.data(), numBlocks, size);
  printExact("partial sums", f_odata);

  std::printf("Reduction (int), %d items\n", size);
  ferry::Buffer<int> i_idata(size);
  ferry::Buffer<int> i_odata(numBlocks);
  initialize(i_idata);
  for (int m = 0; m < iters; m++)
    cc.dispatch(reduce<int>, ferry::Range(globalWorkSize).local(localWorkSize), i_idata, i_odata,
                ferry::localSpan<int>(localWorkSize), static_cast<unsigned>(size));
  checkResults(i_odata.data(), i_idata.data(), numBlocks, size);
  printExact("partial sums", i_odata);
}

int main(int argc, char **argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 65536;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 2;
  if (size <= 0 || size % 256 != 0) {
    std::printf("the number of items must be a multiple of 256\n");
    return 1;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { runTests(cc, size, iters); });
}
