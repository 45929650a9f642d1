// Issue 33 (found by a third review of the host events, wrong in one file
// and across files): a function hands a pointer into a buffer's elements
// back through an out-parameter (`float **out`, `float *&out`), and the
// host writes through it between computes. The call's buffers now count
// as escaped when the callee has such a parameter, so none is kept on the
// device (before, the rewrite kept `g.a` and printed 4.0 for 304.0).
//
// By hand (each buffer 8 floats, 32 B): each section steps its buffer 3
// times; each compute copies it in (no fill: the pointer handed out before
// the first compute may have written it) and brings it home, which the
// write through the pointer needs.
// In 6 (192 B); out 6 (192 B); dispatches 6.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 192
// ferry-test: from_device 6 from_device_bytes 192
// ferry-test: dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>

struct Grid {
  explicit Grid(int n) : a(n, 0.0f) {}
  void expose(float *&out) { out = a.data(); }
  ferry::Buffer<float> a;
};

void expose(Grid &g, float **out) { *out = g.a.data(); }

FERRY_KERNEL void addOne(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(addOne, ferry::Range(a.size()), a);
}

int main() {
  ferry::Accelerator acc;

  Grid g1(8);
  float *p = nullptr;
  expose(g1, &p);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
    p[0] += 100.0f;
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g1.a); });
  std::printf("1: %.1f %.1f\n", g1.a[0], g1.a[1]);

  Grid g2(8);
  float *q = nullptr;
  g2.expose(q);
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
    q[0] += 100.0f;
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g2.a); });
  std::printf("2: %.1f %.1f\n", g2.a[0], g2.a[1]);
  return 0;
}
