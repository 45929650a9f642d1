// A kernel with a reduction runs in work-groups Ferry chooses: it cannot
// meet at barriers.
#include <ferry/ferry.hpp>

FERRY_KERNEL void k(ferry::KernelContext kc, const float* in,
                    ferry::Sum<float> total) {
  total += in[kc.x];
  kc.barrier();
}

// CHECK: 8:3: error: kernel 'k' has a reduction, so Ferry chooses its work-groups; it cannot use kc.barrier()
