// A global the device cannot see: it is not constant.
#include <ferry/ferry.hpp>

int scale = 3;

static int scaled(int v) { return v * scale; }

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  out[kc.x] = scaled(kc.x);
}

// CHECK: 6:39: error: the mutable global 'scale' cannot be used on the device; make it const or constexpr, or pass it to the kernel as an argument
// CHECK-NOTE: 9:15: note: in helper 'scaled', called from kernel 'k' at line 9
