// The planner follows structured control flow only.
#include <ferry/ferry.hpp>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &b) {
  int n = 0;
again:
  cc.dispatch(inc, ferry::Range(b.size()), b);
  if (++n < 3)
    goto again;
}
// CHECK: 11:5: error: compute function 'run' uses goto
