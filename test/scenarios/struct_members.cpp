// Fuzz findings F7 and F8: buffers handed to a dispatching helper inside a
// struct, by reference (`Pair{a, b}`) and by pointer (`Ptrs{&b, &a}`). The
// helper of a `const Pair &` skipped its copies back (a const struct, but
// its members refer to writable buffers), and the caller took building the
// struct for host writes of a and b; `*s.x` of a pointer member was
// rejected. The caller now hands the buffers over like any other argument,
// and the helper, which takes a struct, brings them home on return.
//
// By hand (a, b: 8 ints = 32 B): byRef reads a: in (1); overwrites b (no
// copy); back at its return: b (1) (a was not written). b[1] is read: current.
// b[0] is written on the host: only that element becomes stale on the
// device. byPtr reads b: b[0] in (2, 4 B); overwrites a; a back at its
// return (2). Exit: both current. In 2 (32 + 4 = 36 B), out 2 (64 B);
// whole-buffer copies in moved 64 B.
// ferry-test: golden
// Fills: 1 of the copies in above (32 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 36 from_device 2 from_device_bytes 64
// ferry-test: fills 1 fill_bytes 32
// ferry-test: dispatches 2
#include "Print.h"

struct Pair {
  ferry::Buffer<int> &x;
  ferry::Buffer<int> &y;
};

struct Ptrs {
  ferry::Buffer<int> *x;
  ferry::Buffer<int> *y;
};

FERRY_KERNEL void add(ferry::KernelContext kc, const int *in, int *out,
                      int s) {
  out[kc.x] = in[kc.x] + s + kc.x;
}

static void byRef(ferry::ComputeContext &cc, const Pair &s, int k) {
  cc.dispatch(add, ferry::Range(s.y.size()), s.x, s.y, k);
}

static void byPtr(ferry::ComputeContext &cc, const Ptrs &s, int k) {
  cc.dispatch(add, ferry::Range(s.y->size()), *s.x, *s.y, k);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b) {
  byRef(cc, Pair{a, b}, 3);
  std::printf("b[1] = %d\n", b[1]);
  b[0] = 100;
  byPtr(cc, Ptrs{&b, &a}, 5);
}

int main() {
  ferry::Buffer<int> a(8, 2), b(8, 0);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b); });
  printBuffer("a", a);
  printBuffer("b", b);
}
