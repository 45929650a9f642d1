// Issue 10, item 9: a pointer swap inside a comma expression was applied
// twice (once for the sub-expression, once for the statement), so Ferry
// believed `p` still named `a` and skipped the copy of `b` the second kernel
// reads.
//
// By hand (a, b: 4 ints = 16 B): dispatch 1 reads a: in (1). After the swap
// `*p` is b: dispatch 2 reads b: in (2). `(*p)[0]` reads b: out (1). Exit: a
// back (2); b's host copy is current. In 2 (32 B), out 2 (32 B).
// ferry-test: golden
// Fills: 2 of the copies in above (32 B) are of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 32 from_device 2 from_device_bytes 32
// ferry-test: fills 2 fill_bytes 32
// ferry-test: dispatches 2
#include "Print.h"

#include <utility>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b) {
  ferry::Buffer<int> *p = &a, *q = &b;
  cc.dispatch(inc, ferry::Range(a.size()), *p);
  int t = (std::swap(p, q), 0);
  cc.dispatch(inc, ferry::Range(a.size()), *p);
  std::printf("%d\n", (*p)[0] + t);
}

int main() {
  ferry::Buffer<int> a(4, 1), b(4, 10);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b); });
  printBuffer("a", a);
  printBuffer("b", b);
}
