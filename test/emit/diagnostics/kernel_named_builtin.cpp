// A kernel whose name OpenCL C reserves for a built-in function.
#include <ferry/ferry.hpp>

FERRY_KERNEL void step(ferry::KernelContext kc, float* out) { out[kc.x] = 0; }

// CHECK: 4:19: error: the kernel name 'step' is an OpenCL C keyword or built-in function; rename the kernel
