#pragma once
#include <ferry/ferry.hpp>

FERRY_KERNEL inline void inc2(ferry::KernelContext kc, int *v) { v[kc.x] += 2; }

FERRY_COMPUTE inline void twice(ferry::ComputeContext &cc,
                                ferry::Buffer<int> &b) {
  cc.dispatch(inc2, ferry::Range(b.size()), b);
}
