// An error three calls deep names every call on the way from the kernel.
#include <ferry/ferry.hpp>

#include <vector>

namespace deep {
inline int leaf(int v) {
  std::vector<int> scratch;
  return v;
}
inline int middle(int v) { return leaf(v) + 1; }
} // namespace deep

static int top(int v) { return deep::middle(v) * 2; }

FERRY_KERNEL void chain(ferry::KernelContext kc, int* out) {
  out[kc.x] = top(kc.x);
}

// CHECK: 8:20: error: 'std::vector' cannot be used in OpenCL C (no std:: containers, strings or library types on the device)
// CHECK-NOTE: 11:35: note: in helper 'deep::leaf', called from helper 'deep::middle' at line 11
// CHECK-NOTE: 14:32: note: in helper 'deep::middle', called from helper 'top' at line 14
// CHECK-NOTE: 17:15: note: in helper 'top', called from kernel 'chain' at line 17
