// life: Conway's Game of Life on a torus, HAT's "flipping generations". Two
// grids are swapped by pointer (std::swap of Buffer<T>*) after each
// generation, and a viewer (a template helper taking `const
// ferry::Buffer<T>&`) draws every k-th generation as ASCII. Only the
// generations the viewer looks at come back to the host.
//
//   life [WIDTH] [HEIGHT] [GENERATIONS] [EVERY]
//
// Transfers, by hand, for the default 20x8 grid (unsigned char, 160 B a
// grid), 10 generations, a frame every 4 (generation g is computed by
// dispatch g-1, which reads `a` and writes `b` when g is odd, reads `b` and
// writes `a` when g is even):
//   frame 0: the viewer reads `a`, valid on the host: nothing.
//   generation 1: `*from` is `a`, stale on the device: in (1). `*to` is `b`,
//           stored at to[kc.y * kc.maxX + kc.x] by every work-item: no copy.
//   generations 2-10: both grids are valid on the device: nothing.
//   frames 4 and 8: the viewer reads `a`, written by generations 4 and 8
//           and stale on the host: out (2).
//   final frame (10): the viewer reads `a`, written by generation 10: out (1).
//   exit: `b`, written by generation 9, is still stale on the host and the
//           caller can reach it: out (1).
// In 1 (160 B), out 4 (640 B), 10 dispatches.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 160 from_device 4 from_device_bytes 640
// ferry-test: dispatches 10
#include <ferry/ferry.hpp>

#include <cstdio>
#include <cstdlib>
#include <utility>

FERRY_KERNEL void lifeStep(ferry::KernelContext kc, const unsigned char *from,
                           unsigned char *to) {
  const int w = kc.maxX, h = kc.maxY;
  int neighbours = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx != 0 || dy != 0)
        neighbours += from[((kc.y + dy + h) % h) * w + (kc.x + dx + w) % w];
  const bool alive = from[kc.y * w + kc.x] != 0;
  to[kc.y * kc.maxX + kc.x] = (neighbours == 3 || (neighbours == 2 && alive)) ? 1 : 0;
}

// The viewer: a population count and the grid as ASCII.
template <class T>
void view(const ferry::Buffer<T> &grid, int width, int height, int generation) {
  int population = 0;
  for (T cell : grid)
    population += cell != 0;
  std::printf("generation %d: %d alive\n", generation, population);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x)
      std::putchar(grid[y * width + x] ? '#' : '.');
    std::putchar('\n');
  }
}

FERRY_COMPUTE void life(ferry::ComputeContext &cc, ferry::Buffer<unsigned char> &a,
                        ferry::Buffer<unsigned char> &b, int width, int height,
                        int generations, int every) {
  ferry::Buffer<unsigned char> *from = &a;
  ferry::Buffer<unsigned char> *to = &b;
  for (int gen = 0; gen < generations; ++gen) {
    if (gen % every == 0)
      view(*from, width, height, gen);
    cc.dispatch(lifeStep, ferry::Range(width, height), *from, *to);
    std::swap(from, to);
  }
  view(*from, width, height, generations);
}

int main(int argc, char **argv) {
  const int width = argc > 1 ? std::atoi(argv[1]) : 20;
  const int height = argc > 2 ? std::atoi(argv[2]) : 8;
  const int generations = argc > 3 ? std::atoi(argv[3]) : 10;
  const int every = argc > 4 ? std::atoi(argv[4]) : 4;

  // A glider, a blinker and a toad, placed relative to the grid's size.
  ferry::Buffer<unsigned char> a(width * height), b(width * height);
  const int cells[][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2},       // glider
                          {7, 3}, {8, 3}, {9, 3},                       // blinker
                          {13, 4}, {14, 4}, {15, 4}, {12, 5}, {13, 5}, {14, 5}}; // toad
  for (const auto &c : cells)
    if (c[0] < width && c[1] < height)
      a[c[1] * width + c[0]] = 1;

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    life(cc, a, b, width, height, generations, every);
  });

  // Both grids are current: the latest generation and the one before it.
  const ferry::Buffer<unsigned char> &latest = generations % 2 == 0 ? a : b;
  const ferry::Buffer<unsigned char> &previous = generations % 2 == 0 ? b : a;
  long long hash = 0, changed = 0;
  for (int i = 0; i < width * height; ++i) {
    hash = (hash * 31 + latest[i]) % 1000000007;
    changed += latest[i] != previous[i];
  }
  std::printf("check: %dx%d generations=%d hash=%lld changed=%lld\n", width,
              height, generations, hash, changed);
  return 0;
}
