#pragma once
// header_compute's compute function, `inline` in a header the Ferry source
// includes directly: Ferry plans it with the source and writes the
// header's rewritten text in place of the #include, between #line markers
// (its #pragma once becomes an include guard there).
#include "Print.h"

FERRY_KERNEL inline void square(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] = values[kc.x] * values[kc.x] % 1000;
}

FERRY_COMPUTE inline void squareTwice(ferry::ComputeContext &cc,
                                      ferry::Buffer<int> &values) {
  cc.dispatch(square, ferry::Range(values.size()), values);
  std::printf("between: %d\n", values[1]);
  cc.dispatch(square, ferry::Range(values.size()), values);
}
