// A buffer of pointers.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, float** rows, float* out) {
  out[kc.x] = rows[kc.x][0];
}

// CHECK: 4:54: error: buffer parameter 'rows' is a pointer to a pointer; buffers must be 'T*' or 'const T*' with T arithmetic or a struct
