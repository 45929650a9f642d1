// Issue 33: the object-oriented time loop. A class owns its state in
// private members, the time step is a member compute function, and main
// (and a function handed the model by pointer) loop over `model.step(cc)`.
// Neither may name `u_` or `v_`, so a block naming them would not compile;
// the block holds the whole object instead, `ferry::buffersIn(model)`,
// which the runtime reads as every buffer stored inside it. Ferry follows
// each of the object's buffers by its path all the same, and proves that
// nothing in the loop but the kernels of `step` uses any of them.
//
// By hand (floats, 64 = 256 B each):
//   main's first loop (4 trips, in a block): trip 1 copies in `u_` (set
//     element by element: no fill) and `v_` (a fill: it starts uniform);
//     `flux_` is written whole by `fluxes`, so nothing; trips 2 to 4 find
//     all of them current (the block carries their state). Out: `u_` and
//     `v_` once, when the loop ends (2, 512 B); `flux_` is private and only
//     compute code uses it, so it never comes home.
//   `perturb()` writes `u_` on the host.
//   main's second loop (2 trips) reads `total()` every trip: no block.
//     Each trip copies `u_` in (the class writes it outside computes
//     somewhere, so the contract's rule holds: 2, 512 B); `v_`, which code
//     outside computes only reads, keeps its device copy. Out: both, every
//     trip (4, 1024 B).
//   advance(acc, &model, 3), in a block over `*m`: `u_` in once (1, 256 B),
//     out both once (2, 512 B). advance(acc, nullptr, 0): nothing.
// In 5 (1280 B), 1 of them a fill (256 B); out 8 (2048 B); dispatches 18.
// Without the blocks: in 10, out 18. Careful hand-written code would skip
// the second loop's second copy of `u_` and advance's (in 3, out 8): Ferry
// cannot tell that the host has not written `u_` since.
// ferry-test: golden
// ferry-test: to_device 5 to_device_bytes 1280 fills 1 fill_bytes 256
// ferry-test: from_device 8 from_device_bytes 2048
// ferry-test: dispatches 18
#include "Print.h"

FERRY_KERNEL void fluxes(ferry::KernelContext kc, const float *u, float *flux, int n) {
  int r = kc.x + 1 < n ? kc.x + 1 : kc.x;
  flux[kc.x] = 0.25f * (u[r] - u[kc.x]);
}

FERRY_KERNEL void update(ferry::KernelContext kc, float *u, float *v, const float *flux) {
  v[kc.x] = 0.5f * v[kc.x] + flux[kc.x];
  u[kc.x] = u[kc.x] + v[kc.x];
}

class Model {
public:
  explicit Model(int n) : u_(n, 1.0f), v_(n, 0.0f), flux_(n, 0.0f) {
    for (int i = 0; i < n; ++i)
      u_[i] = static_cast<float>(i % 5);
  }
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    int n = static_cast<int>(u_.size());
    cc.dispatch(fluxes, ferry::Range(u_.size()), u_, flux_, n);
    cc.dispatch(update, ferry::Range(u_.size()), u_, v_, flux_);
  }
  // Every value is a sum of dyadic fractions: exact on any device.
  double total() const {
    double s = 0;
    for (std::size_t i = 0; i < u_.size(); ++i)
      s += u_[i] + 2.0 * v_[i];
    return s;
  }
  void perturb() { u_[3] += 1.0f; }

private:
  ferry::Buffer<float> u_, v_, flux_;
};

void advance(ferry::Accelerator &acc, Model *m, int steps) {
  for (int s = 0; s < steps; ++s)
    acc.compute([&](ferry::ComputeContext &cc) { m->step(cc); });
}

int main() {
  Model model(64);
  ferry::Accelerator acc;
  for (int s = 0; s < 4; ++s)
    acc.compute([&](ferry::ComputeContext &cc) { model.step(cc); });
  std::printf("after 4 steps: %.6f\n", model.total());
  model.perturb();
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { model.step(cc); });
    std::printf("step %d: %.6f\n", 5 + s, model.total());
  }
  advance(acc, &model, 3);
  advance(acc, nullptr, 0);
  std::printf("after 9 steps: %.6f\n", model.total());
  return 0;
}
