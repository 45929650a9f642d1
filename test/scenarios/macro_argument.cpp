// Issue 16, bug 3: a macro in a dispatch's scalar argument (`nelr * NVAR`,
// Rodinia cfd). The argument keeps its spelling; where its type differs from
// the parameter's, the cast goes around the macro too.
//
// By hand (16 ints = 64 B): dispatch 1 reads `v`: in (1); dispatch 2 finds
// it current on the device. Exit: out (1). In 1 (64 B), out 1 (64 B).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 64 from_device 1 from_device_bytes 64
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 2
#include "Print.h"

#define NVAR 5

FERRY_KERNEL void scale(ferry::KernelContext kc, int *v, int m) {
  v[kc.x] = v[kc.x] * m % 1009;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &v,
                       int nelr, long wide) {
  cc.dispatch(scale, ferry::Range(v.size()), v, nelr * NVAR);
  cc.dispatch(scale, ferry::Range(v.size()), v, wide * NVAR);
}

int main() {
  ferry::Buffer<int> v(16, 3);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v, 2, 3L); });
  printBuffer("v", v);
}
