// A reducer is named only to combine into it.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, const float* in,
                    ferry::Max<float> top) {
  ferry::Max<float> other = top;
  other.combine(in[kc.x]);
}

// CHECK: 6:21: error: a ferry reducer exists only as a kernel's parameter: combine into that parameter itself
