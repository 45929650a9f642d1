// A lambda.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  auto twice = [](int v) { return 2 * v; };
  out[kc.x] = twice(kc.x);
}

// CHECK: 5:16: error: lambdas cannot be translated to OpenCL C; use a helper function
