// A ferry::Local that only some work-items of a group declare: the
// reference execution cannot give them one shared array.
#include <ferry/ferry.hpp>

FERRY_KERNEL void onlyFirst(ferry::KernelContext kc, int* out) {
  if (kc.localX == 0) {
    ferry::Local<int, 4> scratch;
    scratch[0] = kc.groupX;
    out[kc.groupX] = scratch[0];
  }
}

// CHECK: 7:5: error: a ferry::Local declared under a condition that depends on the work-item's id: every work-item of a group must declare it; declare it before the condition
