// A helper that calls itself.
#include <ferry/ferry.hpp>

static int factorial(int n) {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  out[kc.x] = factorial(kc.x);
}

// CHECK: 5:27: error: recursion ('factorial' calls itself, directly or through other functions) cannot be translated to OpenCL C
// CHECK-NOTE: 9:15: note: in helper 'factorial', called from kernel 'k' at line 9
