// A non-const member function called on a temporary has no object to point
// to in OpenCL C.
#include <ferry/ferry.hpp>

struct Counter {
  int n;
  void bump() { ++n; }
};

static Counter make() { return Counter{1}; }

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  make().bump();
  out[kc.x] = 0;
}

// CHECK: 13:3: error: Ferry cannot translate a call of the non-const member function 'Counter::bump' on a temporary to OpenCL C
