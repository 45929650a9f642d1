// Issue 16 (PolyBench's global cl_mem objects): buffers with static storage.
// - `weights`, a namespace-scope Buffer, dispatched on by name in the compute
//   function and in a launch wrapper it calls; a helper Ferry sees writes an
//   element of it on the host, and one it cannot see (compiled apart) reads
//   it: the device's copy comes back before that call.
// - `current`, a global Buffer pointer that main points at a local buffer
//   between computes (the original's cl_mem set up in cl_mem_init).
// - `history`, a static local buffer of a compute function that only
//   kernels touch: it outlives the compute, so it is brought home at the
//   function's end, and the next compute starts from what the last one left.
//
// By hand (weights 8 floats, 32 B; a, b 8 floats; history 4 floats, 16 B):
//   compute 1 (run on a): weights in (32) and `*current` (a) in (32) for
//     apply; scale writes weights; bump() writes weights[1] on the host, so
//     weights comes back first (32) and goes in again for the wrapper (32);
//     firstWeight() may touch any global buffer Ferry can name: `*current`
//     comes back (32; weights is current on the host already). Exit:
//     nothing left on the device. In 3, out 2.
//   compute 2 (run on b): the same, on b: in 3, out 2.
//   3 x tally: history in (16); rounds 0 and 1 bring it home at the exit,
//     round 2 where it reads it (16 each).
//   In 3 + 3 + 3 = 9 (3 x 32 + 3 x 32 + 3 x 16 = 240 B).
//   Out 2 + 2 + 3 = 7 (2 x 32 + 2 x 32 + 3 x 16 = 176 B).
//   Dispatches: 3 + 3 + 3 = 9.
// ferry-test: golden
// Fills: 4 of the copies in above (112 B) are of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 9 to_device_bytes 240 from_device 7 from_device_bytes 176
// ferry-test: fills 4 fill_bytes 112
// ferry-test: dispatches 9
#include "Print.h"

ferry::Buffer<float> weights(8, 1.0f);
ferry::Buffer<float> *current = nullptr;

float firstWeight(); // global_buffers_helpers.cpp

FERRY_KERNEL void scale(ferry::KernelContext kc, float *w) { w[kc.x] *= 2.0f; }

FERRY_KERNEL void apply(ferry::KernelContext kc, const float *w, float *v) {
  v[kc.x] += w[kc.x];
}

FERRY_KERNEL void count(ferry::KernelContext kc, float *h) { h[kc.x] += 1.0f; }

static void bump(int i) { weights[i] += 0.5f; }

FERRY_COMPUTE void applyTo(ferry::ComputeContext &cc) {
  cc.dispatch(apply, ferry::Range(weights.size()), weights, *current);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, float &seen) {
  cc.dispatch(apply, ferry::Range(weights.size()), weights, *current);
  cc.dispatch(scale, ferry::Range(weights.size()), weights);
  bump(1);
  applyTo(cc);
  seen += firstWeight();
}

FERRY_COMPUTE void tally(ferry::ComputeContext &cc, int round) {
  static ferry::Buffer<float> history(4);
  cc.dispatch(count, ferry::Range(history.size()), history);
  if (round == 2)
    std::printf("history %g\n", history[3]);
}

int main() {
  ferry::Buffer<float> a(8, 10.0f), b(8, 20.0f);
  float seen = 0.0f;
  ferry::Accelerator acc;
  current = &a;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, seen); });
  current = &b;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, seen); });
  for (int i = 0; i < 3; ++i)
    acc.compute([i](ferry::ComputeContext &cc) { tally(cc, i); });
  std::printf("seen %g\n", seen);
  printBuffer("a", a);
  printBuffer("b", b);
  printBuffer("weights", weights);
}
