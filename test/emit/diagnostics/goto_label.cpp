// goto and labels.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  int i = 0;
again:
  ++i;
  if (i < kc.x)
    goto again;
  out[kc.x] = i;
}

// CHECK: 6:1: error: 'goto' and labels cannot be translated to OpenCL C
// CHECK: 9:5: error: 'goto' and labels cannot be translated to OpenCL C
