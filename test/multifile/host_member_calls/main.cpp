// Issue 33: host code between computes calls member functions and a free
// function defined in another Ferry source (model.cpp): `model.total()`
// reads the model's private `u_` and `v_`, `gridSum(grid)` reads `grid.a`,
// `model.mix(grid.a)` reads `u_` and its argument (a reference that is not
// const). model.cpp's summary says what each does to its object's paths
// (`members`) and to its parameters (`params`, a member function's too),
// that none runs code no summary describes (`runs`), and that the
// constructors make their buffers anew (`makes_fresh`). So main's keeps are
// those of the one-file form (onefile.cpp): before, each call counted as
// code Ferry cannot see, which may write any buffer, and main kept nothing
// (10 copies in where one file makes 6).
//
// By hand (model: 64 floats, 256 B each; grid: 32 floats, 128 B each):
//   first loop (3 trips; the host reads `total()` every trip):
//     trip 1 copies in `u_` (set element by element), `v_` (a fill: it
//       starts uniform) and `grid.a`; `flux_` and `grid.b` are written
//       whole before any kernel reads them (3, 640 B).
//     trips 2 and 3 copy `u_` in again: the program writes it on the host
//       (`perturb`), and only `v_` of the two is read-only outside
//       computes, so only `v_` keeps its device copy; `grid.a` and `grid.b`
//       are kept (2, 512 B).
//     Each trip brings home `u_`, `v_`, `grid.a`, `grid.b` (12, 2304 B).
//       `flux_` is private and only compute code uses it: never.
//   second loop (2 trips; the host reads `gridSum(grid)`, `total()` and
//     `mix(grid.a)`):
//     `grid.a`, `grid.b` kept, nothing in; `grid.a`, `grid.b` home each
//     trip (4, 512 B).
//   `perturb()` writes `u_[3]` on the host; the last compute copies `u_`
//     in (1, 256 B; `v_` is still current) and brings `u_`, `v_` home
//     (2, 512 B).
// In 6 (1408 B), 1 of them a fill (256 B); out 18 (3328 B);
// dispatches 3 x 4 + 2 x 2 + 2 = 18.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 1408 fills 1 fill_bytes 256
// ferry-test: from_device 18 from_device_bytes 3328
// ferry-test: dispatches 18
#include "model.h"

#include <cstdio>

int main() {
  Model model(64);
  Grid grid(32);
  ferry::Accelerator acc;
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) {
      model.step(cc);
      smooth(cc, grid);
    });
    std::printf("step %d: %.6f\n", s + 1, model.total());
  }
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { smooth(cc, grid); });
    std::printf("grid %d: %.6f %.6f %.6f\n", s + 1, gridSum(grid), model.total(),
                model.mix(grid.a));
  }
  model.perturb();
  acc.compute([&](ferry::ComputeContext &cc) { model.step(cc); });
  std::printf("after: %.6f %.6f\n", model.total(), gridSum(grid));
  return 0;
}
