// A type OpenCL C does not have.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, long* out) {
  __int128 wide = out[kc.x];
  out[kc.x] = static_cast<long>(wide >> 1);
}

// CHECK: 5:12: error: Ferry cannot translate type '__int128' to OpenCL C
