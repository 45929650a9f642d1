// Issue 23, part 3: buffers held in a standard container, a multigrid's
// levels in a `std::vector<ferry::Buffer<float>>`. Which level `levels[l]`
// is, Ferry cannot know, so the elements are one may-alias set: every
// transfer of one is guarded (the runtime decides by its validity bits) and
// a kernel's write through one element expression is seen by a host read
// through another. The forms: the levels loop down and up with an unknown
// index, a reference bound to an element (`coarsest`), a constant index
// (`levels[0]`, `levels.front()`), and a range-for over the container on
// the host. The twin with the buffers as parameters is
// buffer_containers_params.cpp: it moves the same bytes.
//
// By hand (levels of 32, 16, 8 floats: 128, 64, 32 B):
//   down: smoothing level 0 reads it: in (128); restricting into level 1
//     and 2 overwrites them whole (no copy in); smoothing level 1 reads what
//     the device wrote. coarsest[0] += 1 on the host: that element of
//     level 2 back (4 B), and only it goes in again for smoothing (4 B).
//     up: prolongation reads and writes what the device holds. The
//     range-for reads an element of every level, and the exit needs every
//     level whole with no kernel in between: each read is widened to the
//     whole level, back (128 + 64 + 32). levels.front()[3]: current.
//     Exit: all current.
//   In 2 (128 + 4 = 132 B), out 4 (4 + 224 = 228 B); whole-buffer copies
//   moved in 160 B, out 256 B. Dispatches: 2 sweeps x 2 levels + 2
//   restrictions + 1 + 2 prolongations = 9.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 132 from_device 4 from_device_bytes 228
// ferry-test: dispatches 9
#include "Print.h"

#include <vector>

FERRY_KERNEL void smoothKernel(ferry::KernelContext kc, float *u) {
  u[kc.x] = 0.5f * u[kc.x] + 1.0f;
}

FERRY_KERNEL void restrictKernel(ferry::KernelContext kc, const float *fine,
                                 float *coarse) {
  coarse[kc.x] = 0.5f * (fine[2 * kc.x] + fine[2 * kc.x + 1]);
}

FERRY_KERNEL void prolongKernel(ferry::KernelContext kc, const float *coarse,
                                float *fine) {
  fine[kc.x] = fine[kc.x] + 0.25f * coarse[kc.x / 2];
}

FERRY_COMPUTE void vcycle(ferry::ComputeContext &cc,
                          std::vector<ferry::Buffer<float>> &levels,
                          int sweeps) {
  for (std::size_t l = 0; l + 1 < levels.size(); ++l) {
    for (int s = 0; s < sweeps; ++s)
      cc.dispatch(smoothKernel, ferry::Range(levels[l].size()), levels[l]);
    cc.dispatch(restrictKernel, ferry::Range(levels[l + 1].size()), levels[l],
                levels[l + 1]);
  }
  ferry::Buffer<float> &coarsest = levels.back();
  coarsest[0] += 1.0f;
  cc.dispatch(smoothKernel, ferry::Range(coarsest.size()), coarsest);
  for (std::size_t l = levels.size() - 1; l-- > 0;)
    cc.dispatch(prolongKernel, ferry::Range(levels.at(l).size()),
                levels[l + 1], levels.at(l));
  float corners = 0.0f;
  for (const auto &level : levels)
    corners += level[0];
  std::printf("corners %.4f fine[3] %.4f\n", corners, levels.front()[3]);
}

int main() {
  std::vector<ferry::Buffer<float>> levels;
  for (int n = 32; n >= 8; n /= 2) {
    levels.emplace_back(n);
    for (int i = 0; i < n; ++i)
      levels.back()[i] = static_cast<float>((i * 7 + n) % 11);
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { vcycle(cc, levels, 2); });
  printBuffer("level0", levels[0]);
  printBuffer("level1", levels[1]);
  printBuffer("level2", levels[2]);
}
