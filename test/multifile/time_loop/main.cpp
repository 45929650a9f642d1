// Issue 33: time loops over a member compute function and a free compute
// function defined in another Ferry source (model.cpp). The loops must
// move exactly what their one-file form (onefile.cpp) moves: model.cpp's
// summary says which buffers only kernels use in `Model::step` and in
// `smooth` (`kernel_only`), so main's loops leave them on the device until
// they end, as in one file. main may not name the model's private members,
// so its blocks hold the whole object (`ferry::buffersIn(model)`).
//
// By hand (model: 64 floats, 256 B each; grid: 32 floats, 128 B each):
//   main's first loop (4 trips, in a block over `model`, `grid.a` and
//     `grid.b`): trip 1 copies in `u_` (set element by element) and `v_`
//     (a fill: it starts uniform), and `grid.a`; `flux_` and `grid.b` are
//     written whole before any kernel reads them. Trips 2 to 4 find all of
//     them current. Out, once, when the loop ends: `u_`, `v_`, `grid.a`,
//     `grid.b` (4, 768 B). `flux_` is private and only compute code uses
//     it: it never comes home.
//   `perturb()` writes `u_` on the host.
//   main's second loop (2 trips) reads `total()` every trip: no block.
//     Each trip copies `u_` in (2, 512 B; `v_`, which code outside
//     computes only reads, keeps its device copy) and brings `u_` and `v_`
//     home (4, 1024 B).
//   advance(acc, &model, 3), in a block over `*m`: `u_` in once (256 B),
//     `u_` and `v_` out once (2, 512 B).
// In 6 (1408 B), 1 of them a fill (256 B); out 10 (2304 B);
// dispatches 4 x 4 + 2 x 2 + 3 x 2 = 26.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 1408 fills 1 fill_bytes 256
// ferry-test: from_device 10 from_device_bytes 2304
// ferry-test: dispatches 26
#include "model.h"

#include <cstdio>

void advance(ferry::Accelerator &acc, Model *m, int steps) {
  for (int s = 0; s < steps; ++s)
    acc.compute([&](ferry::ComputeContext &cc) { m->step(cc); });
}

int main() {
  Model model(64);
  Grid grid(32);
  ferry::Accelerator acc;
  for (int s = 0; s < 4; ++s)
    acc.compute([&](ferry::ComputeContext &cc) {
      model.step(cc);
      smooth(cc, grid);
    });
  double g = 0;
  for (float x : grid.a)
    g += x;
  std::printf("after 4 steps: %.6f, grid %.6f\n", model.total(), g);
  model.perturb();
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { model.step(cc); });
    std::printf("step %d: %.6f\n", 5 + s, model.total());
  }
  advance(acc, &model, 3);
  std::printf("after 9 steps: %.6f\n", model.total());
  return 0;
}
