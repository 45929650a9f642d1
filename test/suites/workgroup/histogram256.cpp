// NVIDIA OpenCL SDK oclHistogram, the 256-bin histogram of bytes, written
// anew in Ferry's dialect. Original: NVIDIA GPU Computing SDK,
// OpenCL/src/oclHistogram/Histogram256.cl (histogram256,
// mergeHistogram256), oclHistogram256.cpp (initHistogram256 and the
// launcher histogram256, here launchHistogram256: PARTIAL_HISTOGRAM256_COUNT
// = 240 groups of WARP_COUNT * WARP_SIZE = 6 * 32 work-items, then one merge
// group per bin) and
// main.cpp (random bytes, one upload, the GPU histogram read back and
// compared with histogram256CPU).
//
// histogram256 keeps one sub-histogram per warp in a
// ferry::Local<unsigned, WARP_COUNT * 256>, clears it, barrier, counts
// every byte of its words into its warp's sub-histogram, barrier, and
// sums the warps' counts into the group's partial histogram. The original
// counts with a tag trick (write, read back, retry) that relies on a
// warp's work-items running in lockstep, which OpenCL does not promise;
// here addByte is ferry::atomicAdd on the local sub-histogram (as the CUDA
// version of the sample does), reached through addWord, which receives
// the warp's part of the local array as a plain `unsigned *`.
// mergeHistogram256 sums one bin over all partial histograms per group and
// reduces the work-items' sums in a ferry::Local with barriers.
// MERGE_WORKGROUP_SIZE, a build option of the original (256), is 64 here,
// so that the reference execution, which switches between a group's
// work-items at every barrier, stays near a second. main.cpp's 64-bin
// histogram is not ported.
//
//   histogram256 [BYTES ITERATIONS]   (BYTES a multiple of 4)
//
// Bytes the ORIGINAL host code moves at 262144 bytes of data:
//   clEnqueueWriteBuffer d_Data 262144; clEnqueueReadBuffer d_Histogram
//   256*4 = 1024
//   in 1 (262144 B), out 1 (1024 B).
// Whole-buffer optimum: the same. The partial histograms (240 x 256) are
// written at every element by histogram256 before the merge reads them,
// and the histogram at every bin by the merge; local memory is never
// transferred. 1 iteration x 2 kernels = 2 dispatches.
// suite-original: to_device 1 to_device_bytes 262144 from_device 1 from_device_bytes 1024
// optimum: to_device 1 to_device_bytes 262144 from_device 1 from_device_bytes 1024
// ferry-test: args 262144 1
// Ferry: both kernels store at indices made of the group's id and a loop
// over the lane (the merge under `if (kc.localX == 0)`), which Ferry does
// not prove cover the partial histograms (245760 B) and the histogram
// (1024 B); never host-written, both are filled (zero) rather than
// copied: fills 2, no bytes on the bus. (to_device counts the fills with
// the copies.)
// ferry-test: to_device 3 to_device_bytes 508928 from_device 1 from_device_bytes 1024
// ferry-test: fills 2 fill_bytes 246784
// ferry-test: dispatches 2
#include "Print.h"

#include <cstdlib>
#include <vector>

#define HISTOGRAM256_BIN_COUNT 256
#define LOG2_WARP_SIZE 5U
#define WARP_SIZE (1U << LOG2_WARP_SIZE)
#define WARP_COUNT 6
#define HISTOGRAM256_WORKGROUP_SIZE (WARP_COUNT * WARP_SIZE)
#define HISTOGRAM256_WORKGROUP_MEMORY (WARP_COUNT * HISTOGRAM256_BIN_COUNT)
#define PARTIAL_HISTOGRAM256_COUNT 240
#define MERGE_WORKGROUP_SIZE 64

inline void addByte(unsigned *l_WarpHist, unsigned data) { ferry::atomicAdd(&l_WarpHist[data], 1u); }

inline void addWord(unsigned *l_WarpHist, unsigned data) {
  addByte(l_WarpHist, (data >> 0) & 0xFFU);
  addByte(l_WarpHist, (data >> 8) & 0xFFU);
  addByte(l_WarpHist, (data >> 16) & 0xFFU);
  addByte(l_WarpHist, (data >> 24) & 0xFFU);
}

FERRY_KERNEL void histogram256(ferry::KernelContext kc, unsigned *d_PartialHistograms,
                               const unsigned *d_Data, unsigned dataCount) {
  ferry::Local<unsigned, HISTOGRAM256_WORKGROUP_MEMORY> l_Hist;
  const unsigned warpBase = (static_cast<unsigned>(kc.localX) >> LOG2_WARP_SIZE) *
                            HISTOGRAM256_BIN_COUNT;

  for (unsigned i = 0; i < (HISTOGRAM256_BIN_COUNT / WARP_SIZE); i++)
    l_Hist[kc.localX + i * (WARP_COUNT * WARP_SIZE)] = 0;

  kc.barrier();
  for (unsigned pos = kc.x; pos < dataCount; pos += kc.maxX) {
    unsigned data = d_Data[pos];
    addWord(&l_Hist[warpBase], data);
  }

  // The group's histogram: the sum of its warps'.
  kc.barrier();
  for (unsigned pos = kc.localX; pos < HISTOGRAM256_BIN_COUNT;
       pos += HISTOGRAM256_WORKGROUP_SIZE) {
    unsigned sum = 0;
    for (unsigned i = 0; i < WARP_COUNT; i++)
      sum += l_Hist[pos + i * HISTOGRAM256_BIN_COUNT];
    d_PartialHistograms[kc.groupX * HISTOGRAM256_BIN_COUNT + pos] = sum;
  }
}

// One group per bin adds up that bin of every partial histogram.
FERRY_KERNEL void mergeHistogram256(ferry::KernelContext kc, unsigned *d_Histogram,
                                    const unsigned *d_PartialHistograms,
                                    unsigned histogramCount) {
  ferry::Local<unsigned, MERGE_WORKGROUP_SIZE> l_Data;

  unsigned sum = 0;
  for (unsigned i = kc.localX; i < histogramCount; i += MERGE_WORKGROUP_SIZE)
    sum += d_PartialHistograms[kc.groupX + i * HISTOGRAM256_BIN_COUNT];
  l_Data[kc.localX] = sum;

  for (unsigned stride = MERGE_WORKGROUP_SIZE / 2; stride > 0; stride >>= 1) {
    kc.barrier();
    if (static_cast<unsigned>(kc.localX) < stride)
      l_Data[kc.localX] += l_Data[kc.localX + stride];
  }

  if (kc.localX == 0)
    d_Histogram[kc.groupX] = l_Data[0];
}

FERRY_COMPUTE void launchHistogram256(ferry::ComputeContext &cc, ferry::Buffer<unsigned> &d_Histogram,
                                ferry::Buffer<unsigned> &d_PartialHistograms,
                                ferry::Buffer<unsigned> &d_Data, unsigned byteCount) {
  cc.dispatch(histogram256,
              ferry::Range(PARTIAL_HISTOGRAM256_COUNT * HISTOGRAM256_WORKGROUP_SIZE)
                  .local(HISTOGRAM256_WORKGROUP_SIZE),
              d_PartialHistograms, d_Data, byteCount / 4);
  cc.dispatch(mergeHistogram256,
              ferry::Range(HISTOGRAM256_BIN_COUNT * MERGE_WORKGROUP_SIZE).local(MERGE_WORKGROUP_SIZE),
              d_Histogram, d_PartialHistograms, static_cast<unsigned>(PARTIAL_HISTOGRAM256_COUNT));
}

FERRY_COMPUTE void runHistogram(ferry::ComputeContext &cc, const std::vector<unsigned> &h_Data,
                                std::vector<unsigned> &h_HistogramGPU, unsigned byteCount,
                                int numIterations) {
  ferry::Buffer<unsigned> d_Data(byteCount / 4);
  ferry::Buffer<unsigned> d_Histogram(HISTOGRAM256_BIN_COUNT);
  ferry::Buffer<unsigned> d_PartialHistograms(PARTIAL_HISTOGRAM256_COUNT * HISTOGRAM256_BIN_COUNT);
  std::copy(h_Data.begin(), h_Data.end(), d_Data.begin());

  for (int iter = 0; iter < numIterations; iter++)
    launchHistogram256(cc, d_Histogram, d_PartialHistograms, d_Data, byteCount);

  std::copy(d_Histogram.begin(), d_Histogram.end(), h_HistogramGPU.begin());
}

static void histogram256CPU(std::vector<unsigned> &h_Histogram, const std::vector<unsigned> &h_Data) {
  for (unsigned word : h_Data)
    for (int b = 0; b < 4; b++)
      h_Histogram[(word >> (8 * b)) & 0xFFU]++;
}

int main(int argc, char **argv) {
  const unsigned byteCount = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 262144u;
  const int numIterations = argc > 2 ? std::atoi(argv[2]) : 1;
  if (byteCount == 0 || byteCount % 4 != 0) {
    std::printf("the byte count must be a positive multiple of 4\n");
    return 1;
  }
  // Random bytes, skewed so that the bins differ.
  std::vector<unsigned> h_Data(byteCount / 4);
  unsigned seed = 2009;
  for (unsigned &word : h_Data) {
    word = 0;
    for (int b = 0; b < 4; b++) {
      seed = seed * 1103515245u + 12345u;
      const unsigned r = (seed >> 16) & 0xFFFFU;
      word |= ((r & 0xFFU) & ((r >> 8) | 0x3FU)) << (8 * b);
    }
  }
  std::printf("%u bytes, %d iterations\n", byteCount, numIterations);

  std::vector<unsigned> h_HistogramGPU(HISTOGRAM256_BIN_COUNT);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    runHistogram(cc, h_Data, h_HistogramGPU, byteCount, numIterations);
  });

  std::vector<unsigned> h_HistogramCPU(HISTOGRAM256_BIN_COUNT);
  histogram256CPU(h_HistogramCPU, h_Data);
  long long check = 0, total = 0;
  for (int i = 0; i < HISTOGRAM256_BIN_COUNT; i++) {
    check = (check * 31 + h_HistogramGPU[i]) % 1000000007;
    total += h_HistogramGPU[i];
  }
  std::printf("histogram: %u %u %u %u ... %u, total %lld check=%lld\n", h_HistogramGPU[0],
              h_HistogramGPU[1], h_HistogramGPU[2], h_HistogramGPU[3], h_HistogramGPU[255], total,
              check);
  std::printf("matches histogram256CPU: %s\n", h_HistogramGPU == h_HistogramCPU ? "yes" : "no");
}
