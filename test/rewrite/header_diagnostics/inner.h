#pragma once
#include <ferry/ferry.hpp>

FERRY_KERNEL inline void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

FERRY_COMPUTE inline void bump(ferry::ComputeContext &cc,
                               ferry::Buffer<int> &b) {
  cc.dispatch(inc, ferry::Range(b.size()), b);
}
// CHECK: 6:27: error: compute function 'bump' is defined in 'inner.h', which the Ferry source includes only through another header
