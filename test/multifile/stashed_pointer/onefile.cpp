// The one-file form of main.cpp, other.h and other.cpp (see main.cpp for
// the counts worked out by hand, which both must meet).
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 192
// ferry-test: from_device 3 from_device_bytes 192
// ferry-test: dispatches 3
#include <ferry/ferry.hpp>

void remember(ferry::Buffer<float> &b);
void nudge();
FERRY_COMPUTE void grow(ferry::ComputeContext &cc, ferry::Buffer<float> &a);

FERRY_KERNEL void addOne(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

// A pointer into the buffer kept where main.cpp cannot see it.
static float *remembered = nullptr;

void remember(ferry::Buffer<float> &b) { remembered = b.data(); }

void nudge() { remembered[3] += 100.0f; }

FERRY_COMPUTE void grow(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(addOne, ferry::Range(a.size()), a);
}

#include <cstdio>

int main() {
  ferry::Buffer<float> a(16, 0.0f);
  ferry::Accelerator acc;
  remember(a);
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { grow(cc, a); });
    nudge();
  }
  std::printf("%.1f %.1f\n", a[0], a[3]);
  return 0;
}
