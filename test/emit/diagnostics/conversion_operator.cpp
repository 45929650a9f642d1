// A user-defined conversion, and constructors.
#include <ferry/ferry.hpp>

struct Celsius {
  float degrees;
  Celsius(float d) : degrees(d) {}
  operator float() const { return degrees; }
};

FERRY_KERNEL void k(ferry::KernelContext kc, float* out) {
  Celsius c(out[kc.x]);
  out[kc.x] = c;
}

// CHECK: 11:11: error: constructors cannot be translated to OpenCL C; use aggregate initialization ('Celsius v{...}') instead
// CHECK: 12:15: error: user-defined conversions cannot be translated to OpenCL C
