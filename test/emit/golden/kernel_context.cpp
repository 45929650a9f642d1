// Kernels as free functions and static members; the KernelContext fields as
// the work-item functions, in one, two and three dimensions.
#include <ferry/ferry.hpp>

FERRY_KERNEL void fill1(ferry::KernelContext kc, int* out) {
  out[kc.x] = kc.x * 10 + kc.maxX;
}

FERRY_KERNEL void fill2(ferry::KernelContext kc, int* out) {
  out[kc.y * kc.maxX + kc.x] = kc.x + 100 * kc.y + 10000 * kc.maxY;
}

FERRY_KERNEL void fill3(ferry::KernelContext kc, int* out) {
  int i = (kc.z * kc.maxY + kc.y) * kc.maxX + kc.x;
  out[i] = kc.x + 10 * kc.y + 100 * kc.z + 1000 * kc.maxZ;
}

struct Grid {
  FERRY_KERNEL static void clear(ferry::KernelContext kc, float* cells,
                                 float value) {
    cells[kc.x] = value * kc.x;
  }
};

// The context passed on whole to a helper.
static int linear(ferry::KernelContext kc) { return kc.y * kc.maxX + kc.x; }

FERRY_KERNEL void index2(ferry::KernelContext kc, int* out) {
  out[linear(kc)] = linear(kc) * 2;
}

// A kernel that writes its context works on a local copy.
FERRY_KERNEL void shifted(ferry::KernelContext kc, int* out) {
  kc.x = (kc.x + 1) % kc.maxX;
  out[kc.x] = kc.x;
}
