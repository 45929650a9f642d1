// The rest of the C++ a kernel may use: free operator overloads, unions,
// enums with a fixed underlying type, class templates, constexpr and
// variadic function templates, auto return types, default arguments, type
// aliases, if constexpr, library constants, a pointer declared null and
// pointed later, and a kernel in a namespace with a default argument.
#include <ferry/ferry.hpp>

#include <cstdint>
#include <limits>

namespace ns {
struct V {
  float x, y;
};
inline V operator+(V a, V b) { return V{a.x + b.x, a.y + b.y}; }
inline V operator*(V a, float s) { return {a.x * s, a.y * s}; }
union Bits {
  float f;
  std::uint32_t u;
};
enum Sign : signed char { Neg = -1, Zero = 0, Pos = 1 };

FERRY_KERNEL void scaleAdd(ferry::KernelContext kc, V* v, int unused = 0) {
  v[kc.x] = v[kc.x] + v[kc.x] * 2.0f;
}
} // namespace ns

template <typename T, int N> struct Arr {
  T d[N];
};
template <typename T> constexpr T sq(T v) { return v * v; }
template <typename... Ts> int count(Ts... ts) {
  return static_cast<int>(sizeof...(ts));
}
static auto twice(int a) { return a * 2; }
static int add(int a, int b = 3) { return a + b; }

FERRY_KERNEL void extras(ferry::KernelContext kc, float* out,
                         const ns::V* vs, int* iout) {
  using F = float;
  typedef int I;
  F big = std::numeric_limits<float>::max();
  I k = sizeof(ns::V) + alignof(ns::V);
  ns::Bits b;
  b.f = out[kc.x];
  iout[kc.x] = (int)(b.u >> 23) + k + sq(3) + twice(2) + add(1);
  ns::Sign s = out[kc.x] < 0 ? ns::Neg : ns::Pos;
  Arr<int, 3> arr{{1, 2, 3}};
  const float* p = nullptr;
  if (p == nullptr)
    p = &out[kc.x];
  unsigned char uc = 250;
  uc += 10;
  if constexpr (sizeof(int) == 4) {
    iout[kc.x] += s + arr.d[2] + uc;
  }
  ns::V w = kc.x % 2 ? vs[kc.x] : ns::V{1, 2};
  out[kc.x] = *p + w.x + (big > 0) + count(1, 2.0f);
}
