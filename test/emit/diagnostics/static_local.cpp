// A mutable static local, and a string literal.
#include <ferry/ferry.hpp>

static int counter() {
  static int calls = 0;
  return ++calls;
}

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  const char* name = "kernel";
  out[kc.x] = counter() + name[0];
}

// CHECK: 10:22: error: string literals cannot be used in OpenCL C kernels
// CHECK: 5:14: error: static local variables cannot be translated to OpenCL C
// CHECK-NOTE: 11:15: note: in helper 'counter', called from kernel 'k' at line 11
