// FERRY_WO promises no element is read before it is written.
#include <ferry/ferry.hpp>

FERRY_KERNEL void accumulate(ferry::KernelContext kc, FERRY_WO int *out) {
  out[kc.x] = out[kc.x] + 1;
}
// CHECK: 5:15: error:
