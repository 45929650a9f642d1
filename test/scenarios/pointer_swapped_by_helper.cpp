// Buffer pointers swapped inside a helper that takes them by reference
// (`flip(p, q)`). Ferry used to keep believing `p` named `a` after the call,
// so the second kernel found `b` uncopied and `a`'s result never came back.
// A buffer pointer handed out by non-const reference, or by address, may
// name any buffer of its type afterwards: its copies are guarded.
//
// By hand (a, b: 4 ints = 16 B): dispatch 1 reads a: in (1). After flip `*p`
// is b: dispatch 2 reads b: in (2). `(*p)[0]` reads b: out (1). Exit: a back
// (2); b's host copy is current. In 2 (32 B), out 2 (32 B).
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

static void flip(ferry::Buffer<int> *&x, ferry::Buffer<int> *&y) {
  std::swap(x, y);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b) {
  ferry::Buffer<int> *p = &a, *q = &b;
  cc.dispatch(inc, ferry::Range(a.size()), *p);
  flip(p, q);
  cc.dispatch(inc, ferry::Range(a.size()), *p);
  std::printf("%d\n", (*p)[0]);
}

int main() {
  ferry::Buffer<int> a(4, 1), b(4, 10);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b); });
  printBuffer("a", a);
  printBuffer("b", b);
}
