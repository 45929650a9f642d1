// Issue 10, fuzz finding F4: a host-only loop that binds a reference to one
// of two buffers and writes through it. Its transfers used to be placed
// before the loop, naming the reference where it is not yet declared (the
// rewritten file did not compile); they now go inside the loop, where the
// name exists.
//
// By hand (a, b: 8 ints = 32 B; 3 trips): the kernel overwrites a (no copy
// in). Trip 1 writes a[0] on the host: a back (1). Trip 2 writes b, never on
// the device; trip 3 writes a again, its host copy current. Exit: both host
// copies are current. In 0, out 1 (32 B).
// ferry-test: golden
// ferry-test: to_device 0 to_device_bytes 0 from_device 1 from_device_bytes 32
// ferry-test: dispatches 1
#include "Print.h"

FERRY_KERNEL void fill(ferry::KernelContext kc, int *v, int s) {
  v[kc.x] = kc.x + s;
}

static void bump(ferry::Buffer<int> &x, int v) { x[0] += v; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b, int k) {
  cc.dispatch(fill, ferry::Range(a.size()), a, 1);
  int w = 0;
  while (w < k) {
    auto &to = (w % 2 == 0) ? a : b;
    bump(to, 5);
    ++w;
  }
}

int main() {
  ferry::Buffer<int> a(8, 0), b(8, 0);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, 3); });
  printBuffer("a", a);
  printBuffer("b", b);
}
