#ifndef FERRY_TEST_RELAX_H
#define FERRY_TEST_RELAX_H
// The headers program's shared code, `inline` in a header both Ferry
// sources include: two kernels, a dispatching helper (`smooth`, planned with
// no FERRY_COMPUTE of its own) and a compute function (`relax`). Each file
// that includes it plans `relax` and `smooth` and gets its own rewritten
// copy of them, the same text in both (multifile.headers.same_copies).
#include <ferry/ferry.hpp>

FERRY_KERNEL inline void halve(ferry::KernelContext kc, FERRY_RW float *a) {
  if (kc.x < kc.maxX)
    a[kc.x] *= 0.5f;
}

FERRY_KERNEL inline void addInto(ferry::KernelContext kc,
                                 FERRY_RO const float *a, FERRY_RW float *b) {
  if (kc.x < kc.maxX)
    b[kc.x] += a[kc.x];
}

inline void smooth(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                   ferry::Buffer<float> &b) {
  cc.dispatch(halve, ferry::Range(a.size()), a);
  cc.dispatch(addInto, ferry::Range(a.size()), a, b);
}

FERRY_COMPUTE inline void relax(ferry::ComputeContext &cc,
                                ferry::Buffer<float> &a,
                                ferry::Buffer<float> &b) {
  smooth(cc, a, b);
  smooth(cc, a, b);
}

#endif
