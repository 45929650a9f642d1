// A kernel template is a function template; a kernel that is a member of a
// class template is refused, with the way out.
#include <ferry/ferry.hpp>

template <typename T> struct Ops {
  FERRY_KERNEL static void scale(ferry::KernelContext kc, T* v) {
    v[kc.x] *= T(2);
  }
};

template struct Ops<float>;

// CHECK: 6:28: error: kernel 'scale' cannot be a member of a class template; make it a function template instead
