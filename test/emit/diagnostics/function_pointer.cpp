// A function pointer.
#include <ferry/ferry.hpp>

static float twice(float v) { return 2 * v; }

FERRY_KERNEL void k(ferry::KernelContext kc, float* out) {
  float (*op)(float) = twice;
  out[kc.x] = op(out[kc.x]);
}

// CHECK: 7:11: error: function pointers cannot be translated to OpenCL C
