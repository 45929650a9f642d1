// A dispatch nested in an expression leaves no place for the transfers.
#include <ferry/ferry.hpp>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &b, bool again) {
  again ? cc.dispatch(inc, ferry::Range(b.size()), b) : (void)0;
}
// CHECK: 7:14: error: a dispatch must be a statement of its own
