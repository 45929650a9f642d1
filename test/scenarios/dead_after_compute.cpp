// Issue 16 (PolyBench 2mm, 3mm, atax, gesummv, correlation, covariance,
// fdtd-2d, doitgen): scratch buffers that main creates, hands to a compute
// and never names again. When compute returns, no code can read them, so
// the exit copies the contract would otherwise make are dead
// (analyses/lifetime/ExitLiveness). Beside them, four buffers that look as dead but
// are not, and keep their copy back:
// - `kept`: a pointer to its elements was taken before the compute;
// - `noted`: a helper stored a pointer to its elements in a global;
// - `shown`: a lambda made before the compute reads it after;
// - `state`: its compute runs in a loop, and the next run reads it.
//
// By hand (every buffer 16 floats, 64 B):
//   pipeline: `a` (host-written by init) in (64). Every other buffer is
//     written whole by a kernel before it is read: no copy in. Exit: `a`
//     is const; `tmp` and `*scratch` are dead; out, kept, noted, shown out
//     (4 x 64).
//   The loop, 3 computes: each copies `state` in and `state` and `total`
//     back (3 x 64 in, 6 x 64 out).
//   In 4 (256 B), out 10 (640 B); 6 + 3 = 9 dispatches.
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 4 to_device_bytes 256 from_device 10 from_device_bytes 640
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 9
#include "Print.h"

#include <numeric>

FERRY_KERNEL void twice(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x] * 2.0f;
}

FERRY_KERNEL void plusOne(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x] + 1.0f;
}

FERRY_KERNEL void step(ferry::KernelContext kc, float *state, float *total) {
  state[kc.x] += 1.0f;
  total[kc.x] = state[kc.x];
}

static float *noticed = nullptr;

static void init(ferry::Buffer<float> &b, float first) {
  std::iota(b.begin(), b.end(), first);
}

static void remember(float *p) { noticed = p; }

FERRY_COMPUTE void pipeline(ferry::ComputeContext &cc, const ferry::Buffer<float> &a,
                            ferry::Buffer<float> &tmp, ferry::Buffer<float> *scratch,
                            ferry::Buffer<float> &out, ferry::Buffer<float> &kept,
                            ferry::Buffer<float> &noted, ferry::Buffer<float> &shown) {
  cc.dispatch(twice, ferry::Range(a.size()), a, tmp);
  cc.dispatch(twice, ferry::Range(a.size()), tmp, *scratch);
  cc.dispatch(plusOne, ferry::Range(a.size()), *scratch, out);
  cc.dispatch(plusOne, ferry::Range(a.size()), out, kept);
  cc.dispatch(twice, ferry::Range(a.size()), out, noted);
  cc.dispatch(plusOne, ferry::Range(a.size()), kept, shown);
}

FERRY_COMPUTE void accumulate(ferry::ComputeContext &cc, ferry::Buffer<float> &state,
                              ferry::Buffer<float> &total) {
  cc.dispatch(step, ferry::Range(state.size()), state, total);
}

int main() {
  const int n = 16;
  ferry::Buffer<float> a(n), tmp(n), scratch(n), out(n), kept(n), noted(n), shown(n);
  init(a, 1.0f);
  const float *view = kept.data();
  remember(noted.data());
  auto show = [&] { std::printf("shown %g\n", shown[3]); };
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    pipeline(cc, a, tmp, &scratch, out, kept, noted, shown);
  });
  std::printf("out %g %g\n", out[0], out[n - 1]);
  std::printf("kept %g noted %g\n", view[2], noticed[1]);
  show();

  ferry::Buffer<float> state(n), total(n);
  for (int round = 0; round < 3; ++round)
    acc.compute([&](ferry::ComputeContext &cc) { accumulate(cc, state, total); });
  std::printf("total %g\n", total[5]);
}
