// Game of Life on two grids swapped by pointer each generation, displayed
// every k generations through a helper that takes `const&` (HAT's
// "flipping generations").
//
// By hand (16x16 ints = 1024 B, 8 generations, display every 4th):
//   gen 0: `*from` is `a`, stale on the device: in (1). `*to` is fully
//          overwritten (to[kc.y * kc.maxX + kc.x] on every work-item): no copy.
//   gens 1-7: both grids are valid on the device: nothing.
//   after gens 3 and 7 the viewer reads `*from`, stale on the host: out (2).
//   exit: of `a` and `b`, the one written by gen 6 is still stale on the
//         host and the caller can reach it: out (1).
// In 1, out 3. Which grid `from` names depends on the generation, so the
// planner uses guarded copies that act on the actual buffer.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 1024 from_device 3 from_device_bytes 3072
// ferry-test: dispatches 8
#include "Print.h"

#include <utility>

FERRY_KERNEL void lifeStep(ferry::KernelContext kc, const int *from, int *to) {
  const int w = kc.maxX, h = kc.maxY;
  int alive = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx != 0 || dy != 0)
        alive += from[((kc.y + dy + h) % h) * w + (kc.x + dx + w) % w];
  const int self = from[kc.y * w + kc.x];
  to[kc.y * kc.maxX + kc.x] = (alive == 3 || (alive == 2 && self == 1)) ? 1 : 0;
}

void display(const ferry::Buffer<int> &grid, int width, int generation) {
  int alive = 0;
  for (int v : grid)
    alive += v;
  std::printf("generation %d: %d alive, first row ", generation, alive);
  for (int x = 0; x < width; ++x)
    std::putchar(grid[x] ? '#' : '.');
  std::putchar('\n');
}

FERRY_COMPUTE void life(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                        ferry::Buffer<int> &b, int width, int height,
                        int generations, int every) {
  ferry::Buffer<int> *from = &a;
  ferry::Buffer<int> *to = &b;
  for (int gen = 0; gen < generations; ++gen) {
    cc.dispatch(lifeStep, ferry::Range(width, height), *from, *to);
    std::swap(from, to);
    if ((gen + 1) % every == 0)
      display(*from, width, gen + 1);
  }
}

int main() {
  const int width = 16, height = 16;
  ferry::Buffer<int> a(width * height), b(width * height);
  // A glider and a blinker.
  const int cells[][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2},
                          {10, 8}, {11, 8}, {12, 8}};
  for (const auto &c : cells)
    a[c[1] * width + c[0]] = 1;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { life(cc, a, b, width, height, 8, 4); });
  printBuffer("a", a);
  printBuffer("b", b);
}
