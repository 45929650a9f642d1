// Issue 33 (found by a review of the cross-file summaries): functions of
// another Ferry source (other.cpp) that write a buffer unnamed, by three
// ways its summary must show, though none runs code Ferry cannot see by a
// call the old rule would see:
//   * `bumpStore()` writes other.cpp's static buffer, which `run`'s
//     parameter `b` is bound to (`global_buffers`: a parameter of the
//     caller may be such a buffer);
//   * `poke()` writes through a `float *` kept in a static of other.cpp,
//     into a `Buffer<Vec3>` of a struct other.cpp does not know
//     (`pointer_places` lists `float`, a part of `Vec3`);
//   * `tick()` destroys a `Guard`, whose destructor in plain_guard.cpp
//     (not a Ferry source) writes through a pointer kept there (`runs`
//     follows destructors).
// Keeping any of the three buffers would run the next compute on a device
// copy without the host's write: the program prints 4 where the reference
// prints 304, in each line.
//
// By hand (`b`: 8 ints, 32 B; `v`: 8 Vec3, 96 B; `d`: 8 doubles, 64 B):
// each of the 4 computes of each buffer copies it in (`b`'s first a fill:
// the static starts uniform and has no device copy; `v` and `d` have a
// mutable pointer handed out before their first compute, so no fill) and
// brings it home.
// In 12 (768 B), 1 of them a fill (32 B); out 12 (768 B); dispatches 12.
// ferry-test: golden
// ferry-test: to_device 12 to_device_bytes 768 fills 1 fill_bytes 32
// ferry-test: from_device 12 from_device_bytes 768
// ferry-test: dispatches 12
#include "other.h"

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
