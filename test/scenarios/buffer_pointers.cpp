// Issue 10, bug 2 and issue 16, bugs 4 and 11: buffers named through
// pointers on the host. A helper taking `Buffer<T>*` is called with `&a`; a
// `Buffer<T>*` is read with `p->begin()`; `p != &a` only compares addresses.
// The inserted lines name the buffer itself (`a`, `*from`).
//
// By hand (a, b: 16 ints = 64 B): dispatch 1 reads `a`: in (1). bump(&a)
// reads and writes element 0, the only one its summary says it touches:
// that element out (1, 4 B), then the host holds the newer copy of it.
// Dispatch 2: that element in (2, 4 B). The comparison touches nothing.
// std::copy reads all of `*from` (= a): out (2); it overwrites b whole (the
// sizes match at run time): no copy. Exit: both host copies are current.
// In 2 (68 B), out 2 (68 B).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 68 from_device 2 from_device_bytes 68
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 2
#include "Print.h"

#include <algorithm>

FERRY_KERNEL void twice(ferry::KernelContext kc, int *v) {
  v[kc.x] = v[kc.x] * 2 + 1;
}

static void bump(ferry::Buffer<int> *b, int k) { (*b)[0] += k; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b) {
  cc.dispatch(twice, ferry::Range(a.size()), a);
  bump(&a, 5);
  cc.dispatch(twice, ferry::Range(a.size()), a);
  ferry::Buffer<int> *from = &a;
  if (from != &b)
    std::copy(from->begin(), from->end(), b.begin());
}

int main() {
  ferry::Buffer<int> a(16, 1), b(16, 0);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b); });
  printBuffer("a", a);
  printBuffer("b", b);
}
