// Kernel templates: each instantiation a dispatch names is a kernel of its
// own, named like a template helper (`axpy__float`, `tile__16`), with type
// parameters substituted and non-type parameters printed as constants.
#include <ferry/ferry.hpp>

template <typename T>
FERRY_KERNEL void axpy(ferry::KernelContext kc, T a, const T* x, T* y) {
  y[kc.x] = a * x[kc.x] + y[kc.x];
}

template <int Tile>
FERRY_KERNEL void tileSums(ferry::KernelContext kc, const float* in,
                           float* out) {
  ferry::Local<float, Tile> tile;
  tile[kc.localX] = in[kc.x];
  kc.barrier();
  if (kc.localX == 0) {
    float s = 0.0f;
    for (int i = 0; i < Tile; ++i)
      s += tile[i];
    out[kc.groupX] = s;
  }
}

// An explicit specialization is a kernel of its own as well.
template <>
FERRY_KERNEL void axpy<int>(ferry::KernelContext kc, int a, const int* x,
                            int* y) {
  y[kc.x] += a * x[kc.x];
}

// The instantiations: here explicit, so that `ferry emit` on this file alone
// sees them; a dispatch (`cc.dispatch(axpy<float>, ...)`, see
// e2e/kernel_templates.cpp) instantiates the ones it names just as well.
template void axpy<float>(ferry::KernelContext, float, const float*, float*);
template void axpy<double>(ferry::KernelContext, double, const double*,
                           double*);
template void tileSums<16>(ferry::KernelContext, const float*, float*);
template void tileSums<32>(ferry::KernelContext, const float*, float*);
