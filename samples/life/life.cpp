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

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: life [WIDTH] [HEIGHT] [GENERATIONS] [EVERY]\n"
    "  WIDTH        cells across, 1 to 8192 (default 20)\n"
    "  HEIGHT       cells down, 1 to 8192 (default 8)\n"
    "  GENERATIONS  generations, 0 to 1000000 (default 10)\n"
    "  EVERY        generations between frames, 1 to 1000000 (default 4)\n";

[[noreturn]] void usage(int status) {
  std::fputs(kUsage, status == 0 ? stdout : stderr);
  std::exit(status);
}

// argv[index] as a whole number from `low` to `high`; `fallback` if absent.
int intArgument(int argc, char **argv, int index, const char *name, int low,
                int high, int fallback) {
  if (index >= argc)
    return fallback;
  char *end = nullptr;
  errno = 0;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || errno != 0 || value < low ||
      value > high) {
    std::fprintf(stderr,
                 "life: %s must be a whole number from %d to %d, not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 5) {
    std::fprintf(stderr, "life: too many arguments\n");
    usage(1);
  }
  const int width = intArgument(argc, argv, 1, "WIDTH", 1, 8192, 20);
  const int height = intArgument(argc, argv, 2, "HEIGHT", 1, 8192, 8);
  const int generations =
      intArgument(argc, argv, 3, "GENERATIONS", 0, 1000000, 10);
  const int every = intArgument(argc, argv, 4, "EVERY", 1, 1000000, 4);

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
