// A virtual call through a reference.
#include <ferry/ferry.hpp>

struct Shape {
  virtual float area() const { return 0; }
};

static float measure(const Shape& s) { return s.area(); }

FERRY_KERNEL void k(ferry::KernelContext kc, float* out) {
  Shape s;
  out[kc.x] = measure(s);
}

// CHECK: 11:9: error: Ferry cannot translate struct 'Shape' to OpenCL C: it has base classes or virtual functions
// CHECK: 8:47: error: virtual calls cannot be translated to OpenCL C
// CHECK-NOTE: 12:15: note: in helper 'measure', called from kernel 'k' at line 12
