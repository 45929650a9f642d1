// Fuzz finding F6: a host-only loop that swaps two buffer pointers and then
// writes through one. Its copies used to be placed before the loop, named
// `*p`, where `p` still pointed to the other buffer: the host wrote stale
// data, and the exit copy then overwrote the host's writes. A loop that
// rebinds a name its lines use is walked statement by statement.
//
// By hand (a, b: 8 ints = 32 B; 1 trip): the kernel updates b (it reads a and
// b: in 2). In the loop `p` is b after the swap: b back (1), written on the
// host. Exit: a was never written on the device, b's host copy is current.
// In 2 (64 B), out 1 (32 B).
// ferry-test: golden
// Fills: 2 of the copies in above (64 B) are of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 64 from_device 1 from_device_bytes 32
// ferry-test: fills 2 fill_bytes 64
// ferry-test: dispatches 1
#include "Print.h"

#include <utility>

FERRY_KERNEL void update(ferry::KernelContext kc, int *dst, const int *src) {
  dst[kc.x] = (dst[kc.x] * 5 + src[kc.x] + kc.x) & 0xFFFF;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b, int trips) {
  cc.dispatch(update, ferry::Range(b.size()), b, a);
  ferry::Buffer<int> *p = &a, *q = &b;
  int w = 0;
  while (w < trips) {
    std::swap(p, q);
    for (std::size_t i = 0; i < p->size(); ++i)
      (*p)[i] = ((*p)[i] + 3 * static_cast<int>(i)) & 0xFFFF;
    ++w;
  }
}

int main() {
  ferry::Buffer<int> a(8, 0), b(8, 9);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, 1); });
  printBuffer("a", a);
  printBuffer("b", b);
}
