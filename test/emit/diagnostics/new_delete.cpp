// new and delete.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  int* scratch = new int[4];
  scratch[0] = kc.x;
  out[kc.x] = scratch[0];
  delete[] scratch;
}

// CHECK: 5:18: error: dynamic memory ('new') cannot be used in OpenCL C
// CHECK: 8:3: error: dynamic memory ('delete') cannot be used in OpenCL C
