// An atomic on a private variable: OpenCL C has atomics only on global and
// local memory.
#include <ferry/ferry.hpp>

FERRY_KERNEL void count(ferry::KernelContext kc, int* out) {
  int mine = 0;
  ferry::atomicAdd(&mine, 1);
  out[kc.x] = mine;
}

// CHECK: 7:20: error: 'ferry::atomicAdd' needs a pointer into a buffer or a ferry::Local ('&buf[i]', '&tile[i]'); OpenCL C has no atomics on private memory
