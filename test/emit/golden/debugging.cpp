// printf and assert in kernels: OpenCL C 1.2's printf, with C's length
// modifiers for 64-bit and size types rewritten to OpenCL's `l`; a failed
// assert is reported on standard output and the kernel goes on.
#include <ferry/ferry.hpp>

#include <cassert>
#include <cstdio>

FERRY_KERNEL void show(ferry::KernelContext kc, const float* v, long n) {
  if (kc.x == 0)
    std::printf("n = %ld, first = %f, size %zu, 100%%\n", n, v[0],
                sizeof(float));
  printf("%d: %s\t%c\n", kc.x, "item", 'x');
}

FERRY_KERNEL void checked(ferry::KernelContext kc, const int* in, int* out) {
  assert(in[kc.x] >= 0 && "inputs are counts");
  out[kc.x] = in[kc.x] * 2;
}
