// std:: containers and strings on the device.
#include <ferry/ferry.hpp>

#include <string>
#include <vector>

FERRY_KERNEL void k(ferry::KernelContext kc, int* out) {
  std::vector<int> v(4);
  std::string name = "work-item";
  out[kc.x] = kc.x;
}

// CHECK: 8:20: error: 'std::vector' cannot be used in OpenCL C (no std:: containers, strings or library types on the device)
// CHECK: 9:15: error: 'std::string' cannot be used in OpenCL C (no std:: containers, strings or library types on the device)
