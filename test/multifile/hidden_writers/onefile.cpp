// The one-file form of main.cpp, other.h and other.cpp (plain_guard.cpp
// stays a plain source; see main.cpp for the counts worked out by hand,
// which both must meet).
// ferry-test: golden
// ferry-test: to_device 12 to_device_bytes 768 fills 1 fill_bytes 32
// ferry-test: from_device 12 from_device_bytes 768
// ferry-test: dispatches 12
#include "guard.h"
#include <ferry/ferry.hpp>

// A buffer of other.cpp's own, in a static local, written by bumpStore().
ferry::Buffer<int> &store();
void bumpStore();

// A pointer kept in a static of other.cpp, written through by poke().
void remember(float *p);
void poke();

// Hands a pointer to plain_guard.cpp (not a Ferry source), which keeps it.
void track(double *p);
// Destroys a Guard, whose destructor (in plain_guard.cpp) writes through it.
void tick();

ferry::Buffer<int> &store() {
  static ferry::Buffer<int> s(8, 0);
  return s;
}

void bumpStore() { store()[0] += 100; }

static float *stash = nullptr;

void remember(float *p) { stash = p; }

void poke() { *stash += 100.0f; }

void track(double *p) { libKeep(p); }

void tick() { Guard g; }

#include <cstdio>

// Declared only here: other.cpp does not know it.
struct Vec3 {
  float x, y, z;
};

FERRY_KERNEL void addInt(ferry::KernelContext kc, int *a) { a[kc.x] += 1; }
FERRY_KERNEL void addDouble(ferry::KernelContext kc, double *a) { a[kc.x] += 1.0; }
FERRY_KERNEL void addVec(ferry::KernelContext kc, Vec3 *a) { a[kc.x].x += 1.0f; }

FERRY_COMPUTE void stepInts(ferry::ComputeContext &cc, ferry::Buffer<int> &a) {
  cc.dispatch(addInt, ferry::Range(a.size()), a);
}

FERRY_COMPUTE void stepVecs(ferry::ComputeContext &cc, ferry::Buffer<Vec3> &a) {
  cc.dispatch(addVec, ferry::Range(a.size()), a);
}

FERRY_COMPUTE void stepDoubles(ferry::ComputeContext &cc, ferry::Buffer<double> &a) {
  cc.dispatch(addDouble, ferry::Range(a.size()), a);
}

// `b` may be other.cpp's static buffer, which bumpStore() writes by name.
void run(ferry::Accelerator &acc, ferry::Buffer<int> &b) {
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepInts(cc, b); });
    bumpStore();
  }
  acc.compute([&](ferry::ComputeContext &cc) { stepInts(cc, b); });
}

int main() {
  ferry::Accelerator acc;
  run(acc, store());
  std::printf("%d %d\n", store()[0], store()[1]);

  ferry::Buffer<Vec3> v(8, Vec3{0.0f, 0.0f, 0.0f});
  remember(&v[0].x);
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepVecs(cc, v); });
    poke();
  }
  acc.compute([&](ferry::ComputeContext &cc) { stepVecs(cc, v); });
  std::printf("%.1f %.1f\n", v[0].x, v[1].x);

  ferry::Buffer<double> d(8, 0.0);
  track(&d[0]);
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepDoubles(cc, d); });
    tick();
  }
  acc.compute([&](ferry::ComputeContext &cc) { stepDoubles(cc, d); });
  std::printf("%.1f %.1f\n", d[0], d[1]);
  return 0;
}
