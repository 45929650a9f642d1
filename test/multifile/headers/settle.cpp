// A compute function that calls relax.h's dispatching helper `smooth` twice
// and reads b on the host between the calls.
#include "relax.h"
#include "settle.h"

#include <cstdio>

FERRY_COMPUTE void settle(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                          ferry::Buffer<float> &b) {
  smooth(cc, a, b);
  std::printf("settle: b[1] %.3f\n", b[1]);
  smooth(cc, a, b);
}
