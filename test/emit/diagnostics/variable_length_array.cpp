// An array whose size is known only at run time.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, float* out, int n) {
  float scratch[n];
  scratch[0] = out[kc.x];
  out[kc.x] = scratch[0];
}

// CHECK: 5:9: error: variable-length arrays cannot be translated to OpenCL C; use a fixed size
