// A convergence check that reads one element per sweep (issue 22): the
// loop runs until the largest value, element 0, settles; each sweep's
// test needs that element alone on the host.
//
// By hand (256 ints = 1024 B; values 1000 - i, halved each sweep until
// element 0 is 1: 1000 500 250 125 62 31 15 7 3 1, 9 sweeps): the first
// test reads the host's own data: nothing. The first sweep's kernel reads
// all of `v`: in (1024 B), guarded (the loop may not run), so the later
// sweeps skip it. Each later test copies element 0 back (9 x 4 B): the
// next kernel writes all of `v` again, so nothing more is worth bringing
// back there. Exit: the rest comes back, [1, 256) (1020 B).
// In 1 (1024 B), out 10 (1056 B). Whole-buffer transfers moved out 9
// (9216 B).
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 1024 from_device 10 from_device_bytes 1056
// ferry-test: fills 0
// ferry-test: dispatches 9
#include "Print.h"

FERRY_KERNEL void halve(ferry::KernelContext kc, int *v) {
  v[kc.x] = v[kc.x] / 2;
}

FERRY_COMPUTE void settle(ferry::ComputeContext &cc, ferry::Buffer<int> &v) {
  int sweeps = 0;
  while (v[0] > 1) {
    cc.dispatch(halve, ferry::Range(v.size()), v);
    ++sweeps;
  }
  std::printf("settled after %d sweeps\n", sweeps);
}

int main() {
  ferry::Buffer<int> v(256);
  for (int i = 0; i < 256; ++i)
    v[i] = 1000 - i;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { settle(cc, v); });
  printBuffer("v", v);
}
