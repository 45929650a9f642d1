// long double has no OpenCL C type.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, double* out) {
  long double wide = out[kc.x];
  out[kc.x] = static_cast<double>(wide * 2);
}

// CHECK: 5:15: error: 'long double' has no OpenCL C equivalent; use 'double'
