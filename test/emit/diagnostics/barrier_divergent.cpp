// A kc.barrier() that only some work-items of a group reach: under a
// condition on their ids (directly, through a variable, through a loop
// bound, after an early return), or in a helper called under one. Loops
// bounded by the group size and conditions on the group's id are fine.
#include <ferry/ferry.hpp>

FERRY_KERNEL void underIf(ferry::KernelContext kc, float* out) {
  if (kc.localX < 8)
    kc.barrier();
  out[kc.x] = 0.0f;
}

FERRY_KERNEL void throughVariable(ferry::KernelContext kc, float* out) {
  int half = kc.x / 2;
  for (int i = 0; i < half; ++i)
    kc.barrier();
  out[kc.x] = 1.0f;
}

FERRY_KERNEL void afterReturn(ferry::KernelContext kc, float* out) {
  if (kc.y > 3)
    return;
  kc.barrier();
  out[kc.x] = 2.0f;
}

static void sync(ferry::KernelContext kc) { kc.barrier(); }

FERRY_KERNEL void inHelper(ferry::KernelContext kc, float* out) {
  kc.localX == 0 ? sync(kc) : (void)0;
  out[kc.x] = 3.0f;
}

static void syncIf(ferry::KernelContext kc, int n) {
  if (n > 0)
    kc.barrier();
}

FERRY_KERNEL void argumentDecides(ferry::KernelContext kc, float* out) {
  syncIf(kc, 1);          // uniform: fine
  syncIf(kc, kc.localZ);  // differs between work-items
  out[kc.x] = 4.0f;
}

FERRY_KERNEL void uniformOnes(ferry::KernelContext kc, float* out) {
  for (int step = kc.localSizeX / 2; step > 0; step /= 2)
    kc.barrier();
  if (kc.groupX == 0)
    kc.barrier();
  out[kc.x] = 5.0f;
}

// CHECK: 9:5: error: kc.barrier() under a condition that depends on the work-item's id: every work-item of a group must reach it, or none
// CHECK: 16:5: error: kc.barrier() under a condition that depends on the work-item's id: every work-item of a group must reach it, or none
// CHECK: 23:3: error: kc.barrier() under a condition that depends on the work-item's id: every work-item of a group must reach it, or none
// CHECK: 27:45: error: kc.barrier() under a condition that depends on the work-item's id: every work-item of a group must reach it, or none
// CHECK-NOTE: 30:20: note: in helper 'sync', called from kernel 'inHelper' at line 30
// CHECK: 36:5: error: kc.barrier() under a condition that depends on the work-item's id: every work-item of a group must reach it, or none
// CHECK-NOTE: 41:3: note: in helper 'syncIf', called from kernel 'argumentDecides' at line 41
