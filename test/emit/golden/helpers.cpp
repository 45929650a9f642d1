// Helpers at any depth: static, in namespaces, static members, function
// templates (one OpenCL function per instantiation).
#include <ferry/ferry.hpp>

namespace util {
namespace detail {
inline int square(int v) { return v * v; }
} // namespace detail
inline int sumOfSquares(int a, int b) {
  return detail::square(a) + detail::square(b);
}
} // namespace util

struct Ops {
  static int twice(int v) { return util::sumOfSquares(v, 0) * 2; }
};

template <typename T> T largest(T a, T b, T c) {
  T m = a > b ? a : b;
  return m > c ? m : c;
}

template <int N> int scaled(int v) { return v * N; }

static float mix(float a, float b, float t) { return a + (b - a) * t; }

FERRY_KERNEL void helpers(ferry::KernelContext kc, const int* in, int* out,
                          const float* f, float* fout) {
  int i = kc.x;
  int v = in[i];
  out[i] = Ops::twice(v) + largest(v, 3, -v) + scaled<3>(v) + scaled<5>(v);
  fout[i] = largest(f[i], 0.5f, mix(f[i], 1.0f, 0.25f));
}
