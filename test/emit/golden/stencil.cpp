// A 2-D five-point stencil (one Jacobi step) with a fixed boundary.
#include <ferry/ferry.hpp>

constexpr float kCentre = 0.5f;
constexpr float kSide = 0.125f;

static float at(const float* grid, int x, int y, int width) {
  return grid[y * width + x];
}

FERRY_KERNEL void jacobi(ferry::KernelContext kc, const float* in, float* out) {
  int x = kc.x;
  int y = kc.y;
  int w = kc.maxX;
  int h = kc.maxY;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[y * w + x] = in[y * w + x];
    return;
  }
  out[y * w + x] = kCentre * at(in, x, y, w) +
                   kSide * (at(in, x - 1, y, w) + at(in, x + 1, y, w) +
                            at(in, x, y - 1, w) + at(in, x, y + 1, w));
}
