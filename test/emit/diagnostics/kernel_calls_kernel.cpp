// A kernel called from device code.
#include <ferry/ferry.hpp>

FERRY_KERNEL void inner(ferry::KernelContext kc, int* out) { out[kc.x] = 1; }

FERRY_KERNEL void outer(ferry::KernelContext kc, int* out) {
  inner(kc, out);
}

// CHECK: 7:3: error: kernels cannot be called from device code
