#include "other.h"

FERRY_KERNEL void addOne(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }

// A pointer into the buffer kept where main.cpp cannot see it.
static float *remembered = nullptr;

void remember(ferry::Buffer<float> &b) { remembered = b.data(); }

void nudge() { remembered[3] += 100.0f; }

FERRY_COMPUTE void grow(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(addOne, ferry::Range(a.size()), a);
}
