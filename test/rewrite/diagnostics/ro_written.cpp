// An access annotation that the kernel body contradicts.
#include <ferry/ferry.hpp>

FERRY_KERNEL void copy(ferry::KernelContext kc, FERRY_RO int *in, FERRY_WO int *out) {
  out[kc.x] = in[kc.x];
  in[kc.x] = 0;
}
// CHECK: 6:3: error:
