// Issue 31: one rewritten text serves every instantiation of a compute
// function template, so a scalar kernel argument that each instantiation
// converts to a different parameter type (here `2`, an int, to float for
// one and to int, unconverted, for the other) cannot be written once.
#include <ferry/ferry.hpp>

template <class T>
FERRY_KERNEL void scaleBy(ferry::KernelContext kc, T *v, T f) { v[kc.x] *= f; }

template <class T>
FERRY_COMPUTE void twice(ferry::ComputeContext &cc, ferry::Buffer<T> &v) {
  cc.dispatch(scaleBy<T>, ferry::Range(v.size()), v, 2);
}

int main() {
  ferry::Buffer<float> f(4, 1.0f);
  ferry::Buffer<int> i(4, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    twice(cc, f);
    twice(cc, i);
  });
}

// CHECK: 12:54: error: the instantiations of this template convert this kernel argument to different types; pass a value of the kernel parameter's type
