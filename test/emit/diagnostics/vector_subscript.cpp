// OpenCL C 1.2 has no subscript on vectors: components are named.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, ferry::float4* v, float* out) {
  out[kc.x] = v[kc.x][2];
}

// CHECK: 5:15: error: OpenCL C 1.2 does not index vectors; name the component ('.x', '.y', '.z', '.w')
