// A function declared but defined in no file the tool sees, and a library
// function OpenCL C does not have.
#include <ferry/ferry.hpp>

#include <cstdlib>

float elsewhere(float x);

FERRY_KERNEL void k(ferry::KernelContext kc, float* out) {
  out[kc.x] = elsewhere(out[kc.x]) + std::rand();
}

// CHECK: 10:15: error: 'elsewhere' has no body in this translation unit; Ferry can only translate functions it can see
// CHECK: 10:38: error: 'rand' is not available in OpenCL C (Ferry translates functions defined in the program and the <cmath> functions OpenCL C has)
