// Issue 16, item 8 (Rodinia srad): the first kernel of each iteration
// overwrites a scratch buffer that the second then reads. The overwrite kills
// the need for a copy before the loop: nothing of the scratch's host contents
// is ever read on the device.
//
// By hand (img, dN: 16 ints = 64 B; 3 iterations): img in once (1); dN never
// (a fresh local, overwritten on the device before each read). Exit: img out
// (1); dN is not the caller's. In 1 (64 B), out 1 (64 B).
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 64 from_device 1 from_device_bytes 64
// ferry-test: dispatches 6
#include "Print.h"

FERRY_KERNEL void derive(ferry::KernelContext kc, const int *img, int *dN) {
  dN[kc.x] = img[kc.x] - img[(kc.x + 1) % kc.maxX];
}

FERRY_KERNEL void update(ferry::KernelContext kc, int *img, const int *dN) {
  img[kc.x] = img[kc.x] + dN[kc.x] / 2;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &img,
                       int iterations) {
  ferry::Buffer<int> dN(img.size());
  for (int it = 0; it < iterations; ++it) {
    cc.dispatch(derive, ferry::Range(img.size()), img, dN);
    cc.dispatch(update, ferry::Range(img.size()), img, dN);
  }
}

int main() {
  ferry::Buffer<int> img(16);
  for (std::size_t i = 0; i < img.size(); ++i)
    img[i] = static_cast<int>((i * 37) % 101);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, img, 3); });
  printBuffer("img", img);
}
