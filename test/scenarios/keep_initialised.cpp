// A loop of computes after host initialisation, with only host reads
// between them: an element, a helper taking `const&`, a range-for by
// value. Each compute keeps both buffers, the first one too (where keeping
// keeps nothing: they have no device copy yet).
//
// By hand (24 floats = 96 B each, 5 frames, one kernel per frame):
//   `coeff` is set by std::iota and `level` by a loop before the first
//   frame: both go in at frame 0, in 2 (192 B). From frame 1 on, both
//   device copies are still valid (`acc.keepOnDevice` before the compute),
//   and the entry's `toDeviceIfStale` moves nothing. The kernel writes
//   `level` and main reads it after every frame: out 5 (480 B); `coeff` is
//   only read on the device: never out.
// In 2 (192 B), out 5 (480 B); before the keep, in 10 (960 B).
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 192 from_device 5 from_device_bytes 480
// ferry-test: dispatches 5
#include "Print.h"

#include <numeric>

FERRY_KERNEL void relax(ferry::KernelContext kc, const float *coeff,
                        float *level) {
  level[kc.x] = level[kc.x] * 0.5f + coeff[kc.x];
}

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &coeff,
                        ferry::Buffer<float> &level) {
  cc.dispatch(relax, ferry::Range(level.size()), coeff, level);
}

float total(const ferry::Buffer<float> &b) {
  float sum = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum += b[i];
  return sum;
}

int main() {
  ferry::Buffer<float> coeff(24), level(24);
  std::iota(coeff.begin(), coeff.end(), 1.0f);
  for (std::size_t i = 0; i < level.size(); ++i)
    level[i] = 100.0f;
  ferry::Accelerator acc;
  for (int f = 0; f < 5; ++f) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, coeff, level); });
    float peak = 0;
    for (float v : level)
      peak = v > peak ? v : peak;
    std::printf("frame %d: %.3f %.3f %.3f\n", f, level[0], total(level), peak);
  }
  printBuffer("level", level);
}
