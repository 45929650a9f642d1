// A helper returning a reference.
#include <ferry/ferry.hpp>

static float& first(float* v) { return v[0]; }

FERRY_KERNEL void k(ferry::KernelContext kc, float* out) {
  first(out) = static_cast<float>(kc.x);
}

// CHECK: 4:15: error: functions returning references cannot be translated to OpenCL C; return by value
// CHECK-NOTE: 7:3: note: in helper 'first', called from kernel 'k' at line 7
