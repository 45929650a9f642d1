// A reducer is combined into only in its kernel's own body.
#include <ferry/ferry.hpp>

void add(ferry::Sum<float> total, float v) { total += v; }

FERRY_KERNEL void k(ferry::KernelContext kc, const float* in,
                    ferry::Sum<float> total) {
  add(total, in[kc.x]);
}

// CHECK: 8:7: error: a reducer can be named only to combine into it ('total += v' or 'total.combine(v)')
// CHECK: 4:28: error: a reducer can be combined into only in its kernel's own body; 'total' cannot be passed on
