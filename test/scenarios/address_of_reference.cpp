// Fuzz seed `final` p132, p603, p733: taking the address of a conditional
// reference (`Ptrs keep{&to}`) was taken for rebinding it, so the copy the
// statement needs could not be named and the valid program was refused. Only
// a pointer can be made to name another buffer; a reference cannot.
//
// By hand (a, b: 4 ints = 16 B; `to` is a): the kernel reads and writes a: in
// (1). Its address escapes into `keep`: a back (1), and the host copy is
// taken as the newer one. first() reads through keep: current. Exit: both
// current. In 1 (16 B), out 1 (16 B).
// ferry-test: golden
// Fills: 1 of the copies in above (16 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 16 from_device 1 from_device_bytes 16
// ferry-test: fills 1 fill_bytes 16
// ferry-test: dispatches 1
#include "Print.h"

struct Ptrs {
  ferry::Buffer<int> *x;
};

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

static int first(const Ptrs &s) { return (*s.x)[0]; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b, int pick) {
  auto &to = pick > 0 ? a : b;
  cc.dispatch(inc, ferry::Range(to.size()), to);
  Ptrs keep{&to};
  std::printf("first %d\n", first(keep));
}

int main() {
  ferry::Buffer<int> a(4, 1), b(4, 5);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, 1); });
  printBuffer("a", a);
  printBuffer("b", b);
}
