// A kernel returns nothing: its results are what it stores into buffers.
#include <ferry/ferry.hpp>

FERRY_KERNEL int inc(ferry::KernelContext kc, int *v) { return v[kc.x] += 1; }
// CHECK: 4:18: error: kernel 'inc' must return void
