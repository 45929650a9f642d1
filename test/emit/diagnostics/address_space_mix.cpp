// One pointer that may point into two address spaces.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, const float* in, float* out) {
  float fallback[2] = {0, 1};
  const float* p = kc.x % 2 ? in : fallback;
  out[kc.x] = p[0];
}

// CHECK: 6:20: error: the two pointers of this '?:' point into different address spaces
