// Issue 16 (Rodinia hotspot's compute_tran_temp, which takes `cl_mem
// MatrixTemp[2]`): an array of buffer pointers passed to a launch-wrapper
// helper, which ping-pongs `*bufs[src]` and `*bufs[dst]`. The parameter
// names one buffer per element (`*bufs[0]`, `*bufs[1]`); the helper hands
// them back to its caller, which names what each element points to.
//
// By hand (a, b: 16 floats = 64 B; 2 steps): step 1 reads a: in (1) and
// overwrites b whole (no copy); step 2 reads b, written on the device, and
// overwrites a. The caller prints *bufs[0] = a: out (1). b dies in run.
// In 1 (64 B), out 1 (64 B).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 64 from_device 1 from_device_bytes 64
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 2
#include "Print.h"

FERRY_KERNEL void step(ferry::KernelContext kc, const float *src, float *dst) {
  dst[kc.x] = src[kc.x] + 1.0f;
}

int steps(ferry::ComputeContext &cc, ferry::Buffer<float> *bufs[2], int n) {
  int src = 0, dst = 1;
  for (int t = 0; t < 2; t++) {
    cc.dispatch(step, ferry::Range(n), *bufs[src], *bufs[dst]);
    src = 1 - src;
    dst = 1 - dst;
  }
  return src;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                       int n) {
  ferry::Buffer<float> b(n);
  ferry::Buffer<float> *bufs[2] = {&a, &b};
  int result = steps(cc, bufs, n);
  printBuffer("result", *bufs[result]);
}

int main() {
  const int n = 16;
  ferry::Buffer<float> a(n, 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, n); });
  printBuffer("a", a);
}
