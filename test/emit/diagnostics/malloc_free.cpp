// malloc and free, in a helper.
#include <ferry/ferry.hpp>

#include <cstdlib>

static float* scratch(int n) { return static_cast<float*>(std::malloc(n * 4)); }

FERRY_KERNEL void k(ferry::KernelContext kc, float* out) {
  float* s = scratch(4);
  s[0] = 1;
  out[kc.x] = s[0];
  free(s);
}

// CHECK: 6:59: error: dynamic memory ('malloc') cannot be used in OpenCL C
// CHECK-NOTE: 9:14: note: in helper 'scratch', called from kernel 'k' at line 9
// CHECK: 12:3: error: dynamic memory ('free') cannot be used in OpenCL C
