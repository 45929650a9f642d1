// Issue 16, bug 1: a helper that never dispatches itself writes a buffer on
// the host between calls to a helper that does. Every function between a
// compute function and a dispatch is planned: `loop` tells the runtime of its
// host write, and `step`'s guarded copy then moves `c` each iteration.
//
// By hand (c, d: 1 float = 4 B; out: 64 ints = 256 B; 3 iterations):
// iteration 1: d in, c in (the kernel reads both), out is overwritten whole
// (no copy); out[5] is read: that element back (4 B). c[0] is written on
// the host (its host copy is current: no copy). Iterations 2, 3: c in again
// (the host wrote it), out[5] back again (4 B each). Exit: the rest of
// `out` is stale on the host, two pieces around element 5: 20 + 232 B.
// In 1 + 3 = 4 (16 B), out 5 (3 x 4 + 252 = 264 B); whole-buffer copies
// out moved 3 (768 B). The reference prints `45 25`.
// ferry-test: golden
// Fills: 2 of the copies in above (8 B) are of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 4 to_device_bytes 16 from_device 5 from_device_bytes 264
// ferry-test: fills 2 fill_bytes 8
// ferry-test: dispatches 3
#include "Print.h"

FERRY_KERNEL void addk(ferry::KernelContext kc, const float *d, const float *c,
                       int *out) {
  out[kc.x] = (int)c[0] + (int)d[0] + kc.x;
}

static void step(ferry::ComputeContext &cc, const ferry::Buffer<float> &d,
                 ferry::Buffer<float> &c, ferry::Buffer<int> &out) {
  cc.dispatch(addk, ferry::Range(out.size()), d, c, out);
}

static void loop(ferry::ComputeContext &cc, ferry::Buffer<float> &c,
                 const ferry::Buffer<float> &d, ferry::Buffer<int> &out,
                 long long &acc) {
  for (int it = 0; it < 3; it++) {
    step(cc, d, c, out);
    acc += out[5];
    c[0] = c[0] + 10;
  }
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &c,
                       ferry::Buffer<float> &d, ferry::Buffer<int> &out,
                       long long &acc) {
  loop(cc, c, d, out, acc);
}

int main() {
  ferry::Buffer<float> c(1, 0.0f), d(1, 0.0f);
  ferry::Buffer<int> out(64);
  long long acc = 0;
  ferry::Accelerator accel;
  accel.compute([&](ferry::ComputeContext &cc) { run(cc, c, d, out, acc); });
  std::printf("%lld %d\n", acc, out[5]);
}
