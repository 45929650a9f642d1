// Issue 33 (found by a review of the cross-file summaries): host code
// between computes writes a buffer member through a constructor that is
// handed the object by reference (`Toucher t(g)`) and through a member
// operator the user wrote (`g += 10.0f`). Both wrote `g.a` unseen: the
// constructor's argument counted as a plain use of the object, and a
// member operator reached none of the object's members. Each compute then
// ran on a device copy without the host's writes (it printed 4.0 4.0
// where the reference prints 304.0 34.0, also in one file). The
// constructor's object argument now counts as a call's (its members read
// and written, kept: a constructor may keep the reference), and a user's
// member operator as a member function call.
//
// By hand (`g.a`: 8 floats, 32 B): each of the 4 computes copies `g.a` in
// (the first a fill: it starts uniform; then the host has written it) and
// brings it home (the host writes it next, and prints it at the end).
// In 4 (128 B), 1 of them a fill (32 B); out 4 (128 B); dispatches 4.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 128 fills 1 fill_bytes 32
// ferry-test: from_device 4 from_device_bytes 128
// ferry-test: dispatches 4
#include <ferry/ferry.hpp>

#include <cstdio>

struct Grid {
  explicit Grid(int n) : a(n, 0.0f) {}
  Grid &operator+=(float x) {
    a[1] += x;
    return *this;
  }
  ferry::Buffer<float> a;
};

struct Toucher {
  explicit Toucher(Grid &g) { g.a[0] += 100.0f; }
};

FERRY_KERNEL void addOne(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(addOne, ferry::Range(a.size()), a);
}

int main() {
  Grid g(8);
  ferry::Accelerator acc;
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, g.a); });
    Toucher t(g);
    g += 10.0f;
  }
  acc.compute([&](ferry::ComputeContext &cc) { step(cc, g.a); });
  std::printf("%.1f %.1f\n", g.a[0], g.a[1]);
  return 0;
}
