// A kernel cannot depend on an object.
#include <ferry/ferry.hpp>

struct Scaler {
  int factor = 2;
  FERRY_KERNEL void scale(ferry::KernelContext kc, int *v) { v[kc.x] *= factor; }
};
// CHECK: 6:21: error: kernel 'scale' must be a free function or a static member function
