// heat: 2-D Jacobi heat diffusion on a plate whose top edge is held hot and
// other edges cold. Two grids ping-pong by pointer (std::swap of Buffer<T>*)
// every step; every few steps a second kernel reduces |new - old| over the
// plate to a few partial sums in a small buffer, the host reads just those
// and stops once the change is below a tolerance. The grids themselves stay
// on the device until the end.
//
//   heat [SIZE] [MAX_STEPS] [EVERY] [TOLERANCE]
//
// Transfers, by hand, for the default 16x16 plate (floats, 1024 B a grid),
// at most 1000 steps, a check every 50, tolerance 0.05; the change falls
// below it at the check after step 350 (7 checks, 357 dispatches):
//   step 1: `*from` is `a`, stale on the device: in (1). `*to` is `b`,
//           stored at to[kc.y * kc.maxX + kc.x] by every work-item: no copy.
//   steps 2-350: both grids are valid on the device: nothing.
//   each check: `residual` reads both grids (valid on the device) and
//           overwrites all 4 floats of `partial` (partial[kc.x] over the
//           4-item range): nothing in; the host reads `partial`: out (7, 16
//           B each).
//   exit: both grids were written on the device and never read back: out
//           (2, 1024 B each); `partial` dies with the compute function.
// In 1 (1024 B), out 9 (7*16 + 2*1024 = 2160 B), 357 dispatches.
//
// The Jacobi update and the reduction only add, subtract and scale by 0.25,
// so the host and the device compute the same bits and stop at the same step.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 1024 from_device 9 from_device_bytes 2160
// ferry-test: dispatches 357
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

constexpr int kParts = 4; // partial sums in a convergence check

// One Jacobi step: each interior point becomes the mean of its four
// neighbours; the edges keep their temperature.
FERRY_KERNEL void jacobi(ferry::KernelContext kc, const float *from, float *to) {
  const int w = kc.maxX, h = kc.maxY;
  const int i = kc.y * w + kc.x;
  float t = from[i];
  if (kc.x > 0 && kc.x < w - 1 && kc.y > 0 && kc.y < h - 1)
    t = 0.25f * (from[i - 1] + from[i + 1] + from[i - w] + from[i + w]);
  to[kc.y * kc.maxX + kc.x] = t;
}

// Work-item p sums |a - b| over rows [p * rows, (p + 1) * rows).
FERRY_KERNEL void residual(ferry::KernelContext kc, const float *a,
                           const float *b, float *partial, int width,
                           int height, int rows) {
  float sum = 0.0f;
  for (int y = kc.x * rows; y < (kc.x + 1) * rows && y < height; ++y)
    for (int x = 0; x < width; ++x)
      sum += std::fabs(a[y * width + x] - b[y * width + x]);
  partial[kc.x] = sum;
}

// Steps until the change made by one step, measured every `every` steps, is
// below `tolerance`, or maxSteps have run. The latest temperatures end up in
// `a` after an even number of steps, in `b` after an odd one.
FERRY_COMPUTE void diffuse(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                           ferry::Buffer<float> &b, int size, int maxSteps,
                           int every, float tolerance, int &steps) {
  ferry::Buffer<float> partial(kParts);
  const int rows = (size + kParts - 1) / kParts;
  ferry::Buffer<float> *from = &a;
  ferry::Buffer<float> *to = &b;
  steps = 0;
  while (steps < maxSteps) {
    cc.dispatch(jacobi, ferry::Range(size, size), *from, *to);
    std::swap(from, to);
    ++steps;
    if (steps % every == 0) {
      cc.dispatch(residual, ferry::Range(kParts), *from, *to, partial, size,
                  size, rows);
      float change = 0.0f;
      for (float p : partial)
        change += p;
      std::printf("step %d: change %.3g\n", steps, change);
      if (change < tolerance)
        break;
    }
  }
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: heat [SIZE] [MAX_STEPS] [EVERY] [TOLERANCE]\n"
    "  SIZE       points along an edge of the plate, 1 to 4096 (default 16)\n"
    "  MAX_STEPS  steps at most, 0 to 10000000 (default 1000)\n"
    "  EVERY      steps between checks, 1 to 10000000 (default 50)\n"
    "  TOLERANCE  stop when a check sees less change, 0 or more\n"
    "             (default 0.05)\n";

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
                 "heat: %s must be a whole number from %d to %d, not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

// argv[index] as a number, 0 or more; `fallback` if absent.
float floatArgument(int argc, char **argv, int index, const char *name,
                    float fallback) {
  if (index >= argc)
    return fallback;
  char *end = nullptr;
  errno = 0;
  const float value = std::strtof(argv[index], &end);
  if (end == argv[index] || *end != '\0' || errno != 0 ||
      !std::isfinite(value) || value < 0.0f) {
    std::fprintf(stderr, "heat: %s must be a number, 0 or more, not '%s'\n",
                 name, argv[index]);
    usage(1);
  }
  return value;
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 5) {
    std::fprintf(stderr, "heat: too many arguments\n");
    usage(1);
  }
  const int size = intArgument(argc, argv, 1, "SIZE", 1, 4096, 16);
  const int maxSteps =
      intArgument(argc, argv, 2, "MAX_STEPS", 0, 10000000, 1000);
  const int every = intArgument(argc, argv, 3, "EVERY", 1, 10000000, 50);
  const float tolerance = floatArgument(argc, argv, 4, "TOLERANCE", 0.05f);

  ferry::Buffer<float> a(size * size), b(size * size);
  for (int x = 0; x < size; ++x)
    a[x] = 100.0f; // the hot top edge

  int steps = 0;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    diffuse(cc, a, b, size, maxSteps, every, tolerance, steps);
  });

  // The plate in eight shades, every other row and column.
  const ferry::Buffer<float> &plate = steps % 2 == 0 ? a : b;
  const char shades[] = " .:-=+*#";
  double total = 0.0;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const float t = plate[y * size + x];
      total += t;
      if (y % 2 == 0 && x % 2 == 0)
        std::putchar(shades[t >= 100.0f ? 7 : static_cast<int>(t / 12.5f)]);
    }
    if (y % 2 == 0)
      std::putchar('\n');
  }
  std::printf("check: %dx%d steps=%d centre=%.3f total=%.6g\n", size, size, steps,
              plate[(size / 2) * size + size / 2], total);
  return 0;
}
