// Parboil imghisto (image histogram, one sub-histogram per block), OpenCL
// base version, restructured into Ferry's dialect. Original:
// github.com/abduld/Parboil, benchmarks/imghisto/src/opencl_base/main.cc
// (host, launch wrapper histo_R_per_block) and kernel.cl
// (histo_R_per_block_kernel).
//
// The host loop is the original's: write the image once; then, `repeat`
// times, clear the histogram by writing the host's zeroed array into it and
// run the kernel, which adds its counts into the histogram; finally read it
// back. The original's work-groups count into a local sub-histogram with
// atom_inc and merge it with atom_add; Ferry implements no atomics or local
// memory yet, so the nearest race-free kernel gives each work-item one bin:
// it counts the pixels that fall in it ((d * BINS) >> 12, as in the
// original) and adds the count to its element, the original's merge. The
// image is generated.
//
//   imghisto [WIDTH HEIGHT BINS REPEAT]
//
// Bytes the ORIGINAL host code moves at 128 x 128 pixels, 256 bins, 3
// repetitions (4-byte unsigned pixels and bins):
//   clEnqueueWriteBuffer d_DataA        128*128*4 = 65536
//   per repetition: clEnqueueWriteBuffer d_histo_block (the zeroed host
//     array)                              3 x 256*4 =  3072
//   clEnqueueReadBuffer d_histo_block         256*4 =  1024
//   in 4 (68608 B), out 1 (1024 B).
// Whole-buffer optimum: the image in once; each repetition the host
// overwrites the histogram and the kernel reads it (+=): in (1 each); the
// host reads it after the loop: out (1). Equal to the original:
//   in 4 (68608 B), out 1 (1024 B), 3 dispatches.
// FAILS TODAY (see /work/findings/suites.md, entry 10): Ferry plans the
// std::copy from the vector as a partial write of the histogram, so it
// copies the histogram out before each later repetition's clear, though
// the copy overwrites all of it (out 3, 3072 B).
// suite-original: to_device 4 to_device_bytes 68608 from_device 1 from_device_bytes 1024
// ferry-test: args 128 128 256 3
// ferry-test: to_device 4 to_device_bytes 68608 from_device 1 from_device_bytes 1024
// ferry-test: dispatches 3
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

FERRY_KERNEL void histo_R_per_block_kernel(ferry::KernelContext kc, unsigned *histo,
                                           const unsigned *data, int size, int BINS) {
  const int pos = kc.x;
  if (pos < BINS) {
    unsigned sum = 0;
    for (int i = 0; i < size; i++)
      sum += ((data[i] * BINS) >> 12) == static_cast<unsigned>(pos) ? 1u : 0u;
    histo[pos] += sum; // the original's atom_add merge
  }
}

// The original's launch wrapper.
void histo_R_per_block(ferry::ComputeContext &cc, ferry::Buffer<unsigned> &histo,
                       ferry::Buffer<unsigned> &data, int size, int BINS) {
  cc.dispatch(histo_R_per_block_kernel, ferry::Range(BINS), histo, data, size, BINS);
}

FERRY_COMPUTE void imghisto(ferry::ComputeContext &cc, ferry::Buffer<unsigned> &d_DataA,
                            ferry::Buffer<unsigned> &d_histo_block,
                            const std::vector<unsigned> &h_DataA, int BINS, int repeat) {
  std::vector<unsigned> h_ResultGPU_block(BINS, 0u);
  std::copy(h_DataA.begin(), h_DataA.end(), d_DataA.begin());
  for (int i = 0; i < repeat; i++) {
    // Clear the output.
    std::copy(h_ResultGPU_block.begin(), h_ResultGPU_block.end(), d_histo_block.begin());
    histo_R_per_block(cc, d_histo_block, d_DataA, static_cast<int>(d_DataA.size()), BINS);
  }
}

int main(int argc, char **argv) {
  const int w = argc > 1 ? std::atoi(argv[1]) : 128;
  const int h = argc > 2 ? std::atoi(argv[2]) : 128;
  const int bins = argc > 3 ? std::atoi(argv[3]) : 256;
  const int repeat = argc > 4 ? std::atoi(argv[4]) : 3;
  // A 12-bit image: a gradient with a bright blob.
  std::vector<unsigned> image(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int dx = x - w / 3, dy = y - h / 2;
      image[y * w + x] = dx * dx + dy * dy < 200 ? 4000u - (x * y) % 64
                                                 : static_cast<unsigned>((x * 17 + y * 5) % 4096);
    }
  ferry::Buffer<unsigned> data(w * h), histo(bins);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { imghisto(cc, data, histo, image, bins, repeat); });
  std::printf("imghisto: %dx%d pixels, %d bins, %d repetitions\n", w, h, bins, repeat);
  printExact("histo", histo);
}
