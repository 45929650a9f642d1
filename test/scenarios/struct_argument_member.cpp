// Issue 10 (fuzz seed volume, p78): a local struct of buffer references
// handed to a host helper that reads a member. The helper's access is to
// "some buffer of the struct", which the caller must name in the line it
// writes before the call: it names the member itself, `pair.x`, since a
// reference member of an object of its own always denotes the same buffer.
// The tool refused the program before ("cannot name the buffer").
//
// By hand (a, c: 8 ints = 32 B): the kernel overwrites a, so nothing goes
// in; show() reads a through pair.x: a out (1). c is never on the device.
// In 0, out 1 (32 B).
// ferry-test: golden
// ferry-test: to_device 0 to_device_bytes 0 from_device 1 from_device_bytes 32
// ferry-test: dispatches 1
#include "Print.h"

#include <cstdio>

struct Pair {
  ferry::Buffer<int> &x;
  ferry::Buffer<int> &y;
};

static void show(const Pair &s, int n) {
  std::printf("x[last] %d, y[0] %d\n", s.x[n - 1], s.y[0]);
}

FERRY_KERNEL void fill(ferry::KernelContext kc, int *out, int v) {
  out[kc.x] = v + kc.x;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &c, int n) {
  Pair pair{a, c};
  cc.dispatch(fill, ferry::Range(n), a, 5);
  show(pair, n);
}

int main() {
  const int n = 8;
  ferry::Buffer<int> a(n, 1), c(n, 2);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, c, n); });
  printBuffer("a", a);
  printBuffer("c", c);
}
