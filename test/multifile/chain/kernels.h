#pragma once
// The chain program's kernels, `inline` in a header both Ferry sources
// include: each emits the ones it dispatches.
#include <ferry/ferry.hpp>

FERRY_KERNEL inline void scale(ferry::KernelContext kc, FERRY_RW float *a,
                               float by) {
  if (kc.x < kc.maxX)
    a[kc.x] *= by;
}

FERRY_KERNEL inline void addTo(ferry::KernelContext kc, FERRY_RO const float *a,
                               FERRY_RW float *b) {
  if (kc.x < kc.maxX)
    b[kc.x] += a[kc.x];
}
