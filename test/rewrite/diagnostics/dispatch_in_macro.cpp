// A dispatch written inside a macro expansion cannot be rewritten in place.
#include <ferry/ferry.hpp>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

#define RUN_INC(cc, b) cc.dispatch(inc, ferry::Range(b.size()), b)

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &b) {
  RUN_INC(cc, b);
}
// CHECK: 9:3: error: a dispatch inside a macro expansion cannot be rewritten
