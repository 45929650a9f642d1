// HAT's per-frame loop: Game of Life where every frame is a compute of its
// own, and between frames the host reads only the cells it shows.
//
// By hand (16x16 ints = 1024 B, the rule table 18 ints = 72 B, 4 frames of
// two generations each):
//   frame 0: `rule` and `grid` are written by the host before it, so they
//            go in: in 2 (72 + 1024 B). `next` is local to the compute and
//            overwritten whole (to[kc.y * kc.maxX + kc.x]) before it is
//            read: no copy. The second generation writes `grid` back on the
//            device: the exit copies it home, out 1 (1024 B).
//   frames 1-3: between frames main reads four cells of `grid` and none of
//            `rule`, so before each compute Ferry writes
//            `acc.keepOnDevice(rule); acc.keepOnDevice(grid);`: both device
//            copies are still valid, and the entry's `toDeviceIfStale`
//            copies nothing. Out 1 each (1024 B): main reads the grid.
// In 2 (1096 B), out 4 (4096 B). Every compute starting cold, as before
// the keep, moves both inputs each frame: in 8 (4384 B).
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 1096 from_device 4 from_device_bytes 4096
// ferry-test: dispatches 8
#include "Print.h"

/// rule[alive * 9 + neighbours]: the next state of a cell (B3/S23).
FERRY_KERNEL void generation(ferry::KernelContext kc, const int *rule,
                             const int *from, int *to) {
  const int w = kc.maxX, h = kc.maxY;
  int around = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx != 0 || dy != 0)
        around += from[((kc.y + dy + h) % h) * w + (kc.x + dx + w) % w];
  to[kc.y * kc.maxX + kc.x] = rule[from[kc.y * w + kc.x] * 9 + around];
}

/// One frame: two generations, from `grid` to `next` and back.
FERRY_COMPUTE void frame(ferry::ComputeContext &cc, ferry::Buffer<int> &rule,
                         ferry::Buffer<int> &grid, int width, int height) {
  ferry::Buffer<int> next(grid.size());
  cc.dispatch(generation, ferry::Range(width, height), rule, grid, next);
  cc.dispatch(generation, ferry::Range(width, height), rule, next, grid);
}

int main() {
  const int width = 16, height = 16;
  ferry::Buffer<int> rule(18);
  rule[3] = 1;     // born with 3 neighbours
  rule[9 + 2] = 1; // survives with 2
  rule[9 + 3] = 1; // or 3
  ferry::Buffer<int> grid(width * height);
  // A glider, and a blinker.
  grid[1 * width + 2] = grid[2 * width + 3] = 1;
  grid[3 * width + 1] = grid[3 * width + 2] = grid[3 * width + 3] = 1;
  grid[10 * width + 9] = grid[10 * width + 10] = grid[10 * width + 11] = 1;
  ferry::Accelerator acc;
  for (int f = 0; f < 4; ++f) {
    acc.compute([&](ferry::ComputeContext &cc) {
      frame(cc, rule, grid, width, height);
    });
    // The viewer shows four cells of the glider's path.
    int row = 2 + f;
    std::printf("frame %d: %d%d%d%d\n", f, grid[row * width + 2 + f],
                grid[row * width + 3 + f], grid[(row + 1) * width + 2 + f],
                grid[(row + 1) * width + 3 + f]);
  }
  printBuffer("grid", grid);
}
