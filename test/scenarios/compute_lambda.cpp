// Issue 16 (PolyBench lu as the original writes it): the loop over k sits
// in the lambda given to acc.compute and calls launch wrappers, each a
// compute function that dispatches when `k < n - 1`. The lambda is planned
// as a compute function of its own, so the wrappers hand the matrix back to
// it instead of copying it in and out around every dispatch; the lambda
// reads and writes `a` on the host between calls, and reaches `result`
// through a pointer it captures. `scratch` is not used after the compute:
// no copy back.
//
// By hand (every buffer 8 floats, 32 B):
//   k = 0..6: step dispatches 7 times; the first copies `a` in (32).
//   a[0] read on the host: that element out (4 B). a[1] written on the
//     host: that element alone goes stale on the device.
//   snapshot(a, scratch): a[1] in again (4 B); `scratch` written whole.
//   snapshot(scratch, *target): nothing to copy in.
//   Exit: the rest of `a`, a[2..8), out (24 B: snapshot is a planned call,
//   after which only the run knows where a's copies are, so the read of
//   a[0] is not widened to all of it); `scratch` is dead; `*target` out
//   (32).
//   In 2 (36 B), out 3 (60 B); 9 dispatches. Whole-buffer transfers moved
//   in 2 (64 B), out 2 (64 B).
// ferry-test: golden
// Fills: 1 of the copies in above (32 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 36 from_device 3 from_device_bytes 60
// ferry-test: fills 1 fill_bytes 32
// ferry-test: dispatches 9
#include "Print.h"

FERRY_KERNEL void inc(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

FERRY_KERNEL void tenfold(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x] * 10.0f;
}

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a, int k, int n) {
  if (k < n - 1)
    cc.dispatch(inc, ferry::Range(a.size()), a);
}

FERRY_COMPUTE void snapshot(ferry::ComputeContext &cc, const ferry::Buffer<float> &a,
                            ferry::Buffer<float> &out) {
  cc.dispatch(tenfold, ferry::Range(a.size()), a, out);
}

int main() {
  const int n = 8;
  ferry::Buffer<float> a(n, 1.0f), scratch(n), result(n);
  ferry::Buffer<float> *target = &result;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int k = 0; k < n; ++k)
      step(cc, a, k, n);
    std::printf("a[0] after the loop %g\n", a[0]);
    a[1] = 100.0f;
    snapshot(cc, a, scratch);
    snapshot(cc, scratch, *target);
  });
  std::printf("result %g %g, a[2] %g\n", result[0], result[1], a[2]);
}
