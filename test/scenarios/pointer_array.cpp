// Issue 16, bug 2: an array of buffer pointers whose indices flip each step
// (Rodinia hotspot's `cl_mem MatrixTemp[2]`). `*grid[src]` may be either
// buffer, so its copies are guarded and the runtime decides.
//
// By hand (a, b: 16 ints = 64 B; 3 steps): step 1 reads a: in (1); it
// overwrites b whole (no copy). Steps 2 and 3 read what the step before wrote
// on the device. Exit: both were written on the device: out 2.
// In 1 (64 B), out 2 (128 B).
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 64 from_device 2 from_device_bytes 128
// ferry-test: dispatches 3
#include "Print.h"

FERRY_KERNEL void smooth(ferry::KernelContext kc, const int *src, int *dst,
                         int n) {
  dst[kc.x] = (src[kc.x] + src[(kc.x + 1) % n]) % 1000;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b, int steps) {
  ferry::Buffer<int> *grid[2] = {&a, &b};
  int src = 0, dst = 1;
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(smooth, ferry::Range(a.size()), *grid[src], *grid[dst],
                (int)a.size());
    src = 1 - src;
    dst = 1 - dst;
  }
}

int main() {
  ferry::Buffer<int> a(16), b(16);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<int>(i * i % 17);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, 3); });
  printBuffer("a", a);
  printBuffer("b", b);
}
