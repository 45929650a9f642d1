// Issue 33's "keeps carry into the very next compute only", lifted: the
// runtime carries a kept buffer's state one epoch, so a compute that does
// not use a buffer used to break its chain, and computes alternating in a
// loop kept nothing. Now, where main has not written a buffer since the
// compute that last used it, and a later compute keeps it, the rewriter
// also writes `acc.keepOnDevice(...)` before each compute in between
// (analyses/lifetime/KeptBetweenComputes: "carried" buffers).
//   u, v, z: each stepped by a compute of its own, six computes a trip:
//            kept through the others.
//   w:       written by main after its compute: sent again every trip, and
//            carried through nothing (it is Dirty there).
//   pair:    a local struct whose members are passed one by one
//            (`stepHeat(cc, pair.hot)`): each is handed by its path, and
//            the compute naming `pair.hot` alone leaves `pair.cold`
//            untouched, so it is carried: kept like u.
//   t:       declared after the first compute of each trip: no line there
//            may name it, so it is carried through nothing; the trip's
//            second compute keeps it.
//
// By hand (floats: u, v 64 = 256 B; hot, cold 32 = 128 B; w, z, t 16 =
// 64 B), the first loop, four trips:
//   trip 1: every buffer in once, all fills (6, 896 B);
//   trips 2 to 4: w again (3, 192 B); u, v, hot, cold and z are kept.
//   Out: main prints them after the loop, and nothing in it but kernels
//     uses u, v, hot, cold and z, so they stay on the device until the
//     loop ends (analyses/lifetime/LeftOnDeviceInLoops) and come home once
//     (5, 832 B); w, which main writes in the loop, comes home at every
//     trip (4, 256 B).
// The second loop, two trips: z kept (its last compute was the first
//   loop's), each trip's t a fill at its first compute and kept at the
//   second (2, 128 B); out z once, when the loop ends, and t four times
//   (t is declared in the loop: no block around it can name it) (5,
//   320 B).
// In 11 (1216 B), fills 8 (1024 B); out 14 (1408 B); dispatches 30. Before
// carrying, the first loop sent 24 (3584 B); before loops left buffers on
// the device, 30 came home (3968 B).
// ferry-test: golden
// ferry-test: to_device 11 to_device_bytes 1216 fills 8 fill_bytes 1024
// ferry-test: from_device 14 from_device_bytes 1408
// ferry-test: dispatches 30
#include "Print.h"

FERRY_KERNEL void heat(ferry::KernelContext kc, float *u) {
  u[kc.x] = u[kc.x] * 0.5f + 1.0f;
}

FERRY_KERNEL void cool(ferry::KernelContext kc, float *v) {
  v[kc.x] = v[kc.x] * 0.25f + 2.0f;
}

FERRY_COMPUTE void stepHeat(ferry::ComputeContext &cc, ferry::Buffer<float> &u) {
  cc.dispatch(heat, ferry::Range(u.size()), u);
}

FERRY_COMPUTE void stepCool(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(cool, ferry::Range(v.size()), v);
}

struct Pair {
  ferry::Buffer<float> hot;
  ferry::Buffer<float> cold;
};

int main() {
  ferry::Accelerator acc;
  ferry::Buffer<float> u(64, 8.0f), v(64, 4.0f);
  Pair pair{ferry::Buffer<float>(32, 2.0f), ferry::Buffer<float>(32, 6.0f)};
  ferry::Buffer<float> w(16, 1.0f), z(16, 5.0f);
  for (int s = 0; s < 4; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepHeat(cc, u); });
    acc.compute([&](ferry::ComputeContext &cc) { stepCool(cc, v); });
    acc.compute([&](ferry::ComputeContext &cc) { stepHeat(cc, pair.hot); });
    acc.compute([&](ferry::ComputeContext &cc) { stepCool(cc, pair.cold); });
    acc.compute([&](ferry::ComputeContext &cc) { stepHeat(cc, w); });
    w[3] += 1.0f;
    acc.compute([&](ferry::ComputeContext &cc) { stepCool(cc, z); });
  }
  // Declared after the first compute of each trip: no line before that
  // compute may name it, so nothing carries it there (and each trip's `t`
  // is new anyway); the trip's second compute keeps it.
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepCool(cc, z); });
    ferry::Buffer<float> t(16, 3.0f);
    acc.compute([&](ferry::ComputeContext &cc) { stepHeat(cc, t); });
    acc.compute([&](ferry::ComputeContext &cc) { stepHeat(cc, t); });
    printBuffer("t", t);
  }
  printBuffer("u", u);
  printBuffer("v", v);
  printBuffer("hot", pair.hot);
  printBuffer("cold", pair.cold);
  printBuffer("w", w);
  printBuffer("z", z);
  return 0;
}
