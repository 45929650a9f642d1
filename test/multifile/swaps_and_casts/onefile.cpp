// The one-file form of main.cpp, other.h and other.cpp (see main.cpp for
// the counts worked out by hand, which both must meet).
// ferry-test: golden
// ferry-test: to_device 9 to_device_bytes 288 fills 2 fill_bytes 64
// ferry-test: from_device 9 from_device_bytes 288
// ferry-test: dispatches 9
#include <ferry/ferry.hpp>

struct Grid {
  explicit Grid(int n);
  /// Swaps its buffer with `b`.
  void swapBuf(ferry::Buffer<float> &b);
  ferry::Buffer<float> a;
};

/// Swaps the two buffers.
void swapBufs(ferry::Buffer<float> &x, ferry::Buffer<float> &y);

/// Keeps the address of `b`'s elements as an integer; poke() writes there.
void attach(ferry::Buffer<float> &b);
void poke();

#include <cstdint>
#include <utility>

Grid::Grid(int n) : a(n, 0.0f) {}

void Grid::swapBuf(ferry::Buffer<float> &b) { std::swap(a, b); }

void swapBufs(ferry::Buffer<float> &x, ferry::Buffer<float> &y) { std::swap(x, y); }

static std::uintptr_t address = 0;

void attach(ferry::Buffer<float> &b) {
  address = reinterpret_cast<std::uintptr_t>(b.data());
}

void poke() { reinterpret_cast<float *>(address)[0] += 100.0f; }

#include <cstdio>

FERRY_KERNEL void addOne(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(addOne, ferry::Range(a.size()), a);
}

int main() {
  ferry::Accelerator acc;

  Grid g1(8), h1(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
    h1.a[0] += 100.0f;
    h1.swapBuf(g1.a);
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
  std::printf("1: %.1f %.1f %.1f\n", g1.a[0], h1.a[0], g1.a[1]);

  Grid g2(8), h2(8);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
    h2.a[0] += 100.0f;
    swapBufs(h2.a, g2.a);
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
  std::printf("2: %.1f %.1f %.1f\n", g2.a[0], h2.a[0], g2.a[1]);

  ferry::Buffer<float> b(8, 0.0f);
  attach(b);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, b); });
    poke();
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, b); });
  std::printf("3: %.1f %.1f\n", b[0], b[1]);
  return 0;
}
