// particles: setup and output, host code in a Ferry source of its own.
// main.cpp's plan reads this file's summary: seed() writes both buffers,
// kineticEnergy() and printCentre() only read theirs.
#include "particles.h"

#include <cstdio>

void seed(ferry::Buffer<Vec2> &pos, ferry::Buffer<Vec2> &vel, unsigned seed) {
  unsigned state = seed;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f;
  };
  for (std::size_t i = 0; i < pos.size(); ++i) {
    pos[i] = Vec2{next(), next()};
    vel[i] = Vec2{next() - 0.5f, next() - 0.5f};
  }
}

double kineticEnergy(const ferry::Buffer<Vec2> &vel) {
  double e = 0.0;
  for (std::size_t i = 0; i < vel.size(); ++i)
    e += 0.5 * (vel[i].x * vel[i].x + vel[i].y * vel[i].y);
  return e;
}

void printCentre(const char *label, const ferry::Buffer<Vec2> &pos) {
  double x = 0.0, y = 0.0;
  for (std::size_t i = 0; i < pos.size(); ++i) {
    x += pos[i].x;
    y += pos[i].y;
  }
  const double n = static_cast<double>(pos.size());
  std::printf("%s: centre %.4g %.4g\n", label, x / n, y / n);
}
