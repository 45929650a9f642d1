// The work-item's position comes in as the first parameter.
#include <ferry/ferry.hpp>

FERRY_KERNEL void inc(int *v, ferry::KernelContext kc) { v[kc.x] += 1; }
// CHECK: 4:19: error: kernel 'inc' must take 'ferry::KernelContext' by value
