// A write-only kernel: `fill` stores out[kc.x] for every work-item of a range
// of out.size(), so the device copy needs no host data first.
//
// By hand (64 ints = 256 B): no copy in; the host prints `out` after compute
// returns, so one copy out at the exit of `run`.
// ferry-test: golden
// ferry-test: to_device 0 from_device 1 from_device_bytes 256 dispatches 1
#include "Print.h"

FERRY_KERNEL void fill(ferry::KernelContext kc, int *out, int base) {
  out[kc.x] = base + kc.x * kc.x;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &out) {
  cc.dispatch(fill, ferry::Range(out.size()), out, 7);
}

int main() {
  ferry::Buffer<int> out(64, -1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, out); });
  printBuffer("out", out);
}
