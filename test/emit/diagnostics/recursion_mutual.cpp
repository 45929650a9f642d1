// Two helpers that call each other.
#include <ferry/ferry.hpp>

static bool isOdd(int n);

static bool isEven(int n) { return n == 0 ? true : isOdd(n - 1); }

static bool isOdd(int n) { return n == 0 ? false : isEven(n - 1); }

FERRY_KERNEL void parity(ferry::KernelContext kc, int* out) {
  out[kc.x] = isEven(kc.x);
}

// CHECK: 8:52: error: recursion ('isEven' calls itself, directly or through other functions) cannot be translated to OpenCL C
// CHECK-NOTE: 6:52: note: in helper 'isOdd', called from helper 'isEven' at line 6
// CHECK-NOTE: 11:15: note: in helper 'isEven', called from kernel 'parity' at line 11
