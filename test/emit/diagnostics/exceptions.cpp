// throw, and try/catch.
#include <ferry/ferry.hpp>

static int checked(int v) {
  if (v < 0)
    throw v;
  return v;
}

FERRY_KERNEL void k(ferry::KernelContext kc, const int* in, int* out) {
  try {
    out[kc.x] = in[kc.x];
  } catch (...) {
  }
  out[kc.x] = checked(in[kc.x]);
}

// CHECK: 11:3: error: exceptions (try/catch) cannot be translated to OpenCL C
// CHECK: 6:5: error: exceptions ('throw') cannot be translated to OpenCL C
// CHECK-NOTE: 15:15: note: in helper 'checked', called from kernel 'k' at line 15
