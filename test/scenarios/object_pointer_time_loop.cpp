// object_parameter_time_loop's twin with the model handed by pointer, as C
// codes hand their state (`void run(Accelerator &, Model *m, int)`), once
// as null. `run` never makes `m` point elsewhere, so its buffers are
// followed by their paths from it (`m->u`, `m->v`) as from a reference:
// forgotten at the start, then kept and carried. Each line naming them is
// guarded by `if (m)`: `run` may be handed a null model that it never
// follows (its first statement returns), and a keep or a forget skipped
// only costs copies.
//
// By hand (floats, 64 = 256 B each):
//   run(acc, &m, 4): trip 1, `advance` copies in `m->u` and `m->v` (both
//     forgotten, so stale: 2, 512 B); `relax` keeps `m->v`. Trips 2 to 4
//     keep both: nothing. Out: main prints them, and nothing in the loop
//     but kernels uses them: both come home once, when it ends (2, 512 B).
//   run(acc, nullptr, 2): returns at once; nothing.
//   main writes `m.v[0]`; run(acc, &m, 3) forgets both again: its trip 1
//     copies both in (2, 512 B), then nothing; out 2, 512 B.
// In 4 (1024 B), the first call's two of them fills (512 B: its buffers
// start uniform); out 4 (1024 B); dispatches 14, as the reference twin.
// Before pointers were followed: 3 copies in a trip, 21 (5376 B); before
// loops left buffers on the device, 14 came home (3584 B).
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

static void run(ferry::Accelerator &acc, Model *m, int steps) {
  if (m == nullptr)
    return;
  for (int s = 0; s < steps; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepU(cc, m->u, m->v); });
    acc.compute([&](ferry::ComputeContext &cc) { stepV(cc, (*m).v); });
  }
}

int main() {
  Model m{ferry::Buffer<float>(64, 1.0f), ferry::Buffer<float>(64, 2.0f)};
  ferry::Accelerator acc;
  run(acc, &m, 4);
  run(acc, nullptr, 2);
  m.v[0] = 10.0f;
  run(acc, &m, 3);
  printBuffer("u", m.u);
  printBuffer("v", m.v);
  return 0;
}
