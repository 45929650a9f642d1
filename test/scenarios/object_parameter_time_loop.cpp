// A time loop in a function that takes the model by reference, run twice
// with main writing the model in between: the shape of an application whose
// driver is a function of the state it is handed. The caller may have
// written the model's buffers since its last compute, so before this change
// nothing of `run` was kept and each compute copied its inputs in again.
// Now `run` begins with `ferry::forgetDeviceCopies(m.u, m.v);` (their device
// copies count as stale from there), and from its first compute on its
// computes keep and carry them (analyses/lifetime/KeptBetweenComputes,
// ForgottenAtEntry): `advance` captures `m` and names `m.u` and `m.v`;
// `relax` names `m.v` alone, so it carries `m.u` through to the next trip.
//
// By hand (floats, 64 = 256 B each):
//   run(acc, m, 4): trip 1, `advance` copies in `m.u` and `m.v` (both
//     forgotten, so stale: 2, 512 B); `relax` keeps `m.v`. Trips 2 to 4
//     keep both: nothing. Out: main prints `m.u` and `m.v`, and nothing in
//     the loop but kernels uses them, so they stay on the device until it
//     ends (analyses/lifetime/LeftOnDeviceInLoops) and come home once: 2,
//     512 B.
//   main writes `m.v[0]`; run(acc, m, 3) forgets both again: its trip 1
//     copies both in (2, 512 B), then nothing; out 2, 512 B.
// In 4 (1024 B), the first call's two of them fills (512 B: its buffers
// start uniform); out 4 (1024 B); dispatches 14. Before this change: 3
// copies in a trip, 21 (5376 B); before loops left buffers on the device,
// each compute brought home what it wrote: 14 (3584 B).
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 1024 fills 2 fill_bytes 512
// ferry-test: from_device 4 from_device_bytes 1024
// ferry-test: dispatches 14
#include "Print.h"

struct Model {
  ferry::Buffer<float> u;
  ferry::Buffer<float> v;
};

FERRY_KERNEL void advance(ferry::KernelContext kc, float *u, const float *v) {
  u[kc.x] = u[kc.x] + 0.5f * v[kc.x];
}

FERRY_KERNEL void relax(ferry::KernelContext kc, float *v) {
  v[kc.x] = v[kc.x] * 0.5f + 1.0f;
}

FERRY_COMPUTE void stepU(ferry::ComputeContext &cc, ferry::Buffer<float> &u,
                         const ferry::Buffer<float> &v) {
  cc.dispatch(advance, ferry::Range(u.size()), u, v);
}

FERRY_COMPUTE void stepV(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(relax, ferry::Range(v.size()), v);
}

static void run(ferry::Accelerator &acc, Model &m, int steps) {
  for (int s = 0; s < steps; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepU(cc, m.u, m.v); });
    acc.compute([&](ferry::ComputeContext &cc) { stepV(cc, m.v); });
  }
}

int main() {
  Model m{ferry::Buffer<float>(64, 1.0f), ferry::Buffer<float>(64, 2.0f)};
  ferry::Accelerator acc;
  run(acc, m, 4);
  m.v[0] = 10.0f;
  run(acc, m, 3);
  printBuffer("u", m.u);
  printBuffer("v", m.v);
  return 0;
}
