// Vector types (an extension): ferry::float2, float4, double2, double4,
// int2, int4, uint2, uint4, each OpenCL C's type of that name on the device,
// with its size and alignment on the host (a float4 is 16 bytes aligned to
// 16), so that buffers and structs of them have one layout on both sides.
//
//   ferry::float4 v(1.0f, 2.0f, 3.0f, 4.0f), s(0.5f);  // (float4)(...)
//   v = v * s + 2.0f;          // element-wise, a scalar applies to each
//   float d = ferry::dot(v, v);
//   ferry::float4 q = ferry::vload4(i, p);   // p[4i .. 4i+3] of a float*
//   ferry::vstore4(q, i, out);
//
// Components are .x, .y (and .z, .w). Arithmetic is + - * / (and % & | ^
// on the integer ones) between two vectors of one type or a vector and a
// scalar, compound assignments and unary minus; dot, length, distance and
// normalize take float and double vectors. This header is included by
// <ferry/ferry.hpp>; include that instead.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace ferry {

template <class T, int N> struct alignas(sizeof(T) * N) Vec;

namespace detail {
template <class T> constexpr bool isVecElement() {
  return std::is_same<T, float>::value || std::is_same<T, double>::value ||
         std::is_same<T, int>::value || std::is_same<T, unsigned>::value;
}
} // namespace detail

template <class T> struct alignas(sizeof(T) * 2) Vec<T, 2> {
  static_assert(detail::isVecElement<T>(),
                "ferry vectors hold float, double, int or unsigned");
  T x, y;
  Vec() : x(), y() {}
  explicit Vec(T s) : x(s), y(s) {}
  Vec(T x, T y) : x(x), y(y) {}
  T &operator[](int i) { return i == 0 ? x : y; }
  T operator[](int i) const { return i == 0 ? x : y; }
};

template <class T> struct alignas(sizeof(T) * 4) Vec<T, 4> {
  static_assert(detail::isVecElement<T>(),
                "ferry vectors hold float, double, int or unsigned");
  T x, y, z, w;
  Vec() : x(), y(), z(), w() {}
  explicit Vec(T s) : x(s), y(s), z(s), w(s) {}
  Vec(T x, T y, T z, T w) : x(x), y(y), z(z), w(w) {}
  T &operator[](int i) { return i == 0 ? x : i == 1 ? y : i == 2 ? z : w; }
  T operator[](int i) const {
    return i == 0 ? x : i == 1 ? y : i == 2 ? z : w;
  }
};

using float2 = Vec<float, 2>;
using float4 = Vec<float, 4>;
using double2 = Vec<double, 2>;
using double4 = Vec<double, 4>;
using int2 = Vec<int, 2>;
using int4 = Vec<int, 4>;
using uint2 = Vec<unsigned, 2>;
using uint4 = Vec<unsigned, 4>;

namespace detail {
template <class T> struct VecScalar {
  using type = T;
};
} // namespace detail

// Between two vectors, a vector and a scalar either way round, and as
// compound assignments, as OpenCL C has them; `Allowed<T>` says for which
// component types (% & | ^ are for the integer vectors only).
#define FERRY_VEC_OPERATOR(op, Allowed)                                      \
  template <class T, int N, class = std::enable_if_t<Allowed<T>::value>>     \
  Vec<T, N> operator op(Vec<T, N> a, Vec<T, N> b) {                          \
    for (int i = 0; i < N; ++i)                                              \
      a[i] = T(a[i] op b[i]);                                                \
    return a;                                                                \
  }                                                                          \
  template <class T, int N, class = std::enable_if_t<Allowed<T>::value>>     \
  Vec<T, N> operator op(Vec<T, N> a,                                         \
                        typename detail::VecScalar<T>::type s) {             \
    for (int i = 0; i < N; ++i)                                              \
      a[i] = T(a[i] op s);                                                   \
    return a;                                                                \
  }                                                                          \
  template <class T, int N, class = std::enable_if_t<Allowed<T>::value>>     \
  Vec<T, N> operator op(typename detail::VecScalar<T>::type s,               \
                        Vec<T, N> b) {                                       \
    for (int i = 0; i < N; ++i)                                              \
      b[i] = T(s op b[i]);                                                   \
    return b;                                                                \
  }                                                                          \
  template <class T, int N, class = std::enable_if_t<Allowed<T>::value>>     \
  Vec<T, N> &operator op##=(Vec<T, N> &a, Vec<T, N> b) {                     \
    return a = a op b;                                                       \
  }                                                                          \
  template <class T, int N, class = std::enable_if_t<Allowed<T>::value>>     \
  Vec<T, N> &operator op##=(Vec<T, N> &a,                                    \
                            typename detail::VecScalar<T>::type s) {         \
    return a = a op s;                                                       \
  }
FERRY_VEC_OPERATOR(+, std::is_arithmetic)
FERRY_VEC_OPERATOR(-, std::is_arithmetic)
FERRY_VEC_OPERATOR(*, std::is_arithmetic)
FERRY_VEC_OPERATOR(/, std::is_arithmetic)
FERRY_VEC_OPERATOR(%, std::is_integral)
FERRY_VEC_OPERATOR(&, std::is_integral)
FERRY_VEC_OPERATOR(|, std::is_integral)
FERRY_VEC_OPERATOR(^, std::is_integral)
#undef FERRY_VEC_OPERATOR

template <class T, int N> Vec<T, N> operator-(Vec<T, N> a) {
  for (int i = 0; i < N; ++i)
    a[i] = T(-a[i]);
  return a;
}

template <class T, int N> T dot(Vec<T, N> a, Vec<T, N> b) {
  static_assert(std::is_floating_point<T>::value,
                "ferry::dot takes float and double vectors");
  T s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i] * b[i];
  return s;
}
template <class T, int N> T length(Vec<T, N> a) {
  return std::sqrt(dot(a, a));
}
template <class T, int N> T distance(Vec<T, N> a, Vec<T, N> b) {
  return length(a - b);
}
template <class T, int N> Vec<T, N> normalize(Vec<T, N> a) {
  const T l = length(a);
  for (int i = 0; i < N; ++i)
    a[i] = T(a[i] / l);
  return a;
}

// Elements [2i, 2i + 2) and [4i, 4i + 4) of p as one vector, and back:
// OpenCL C's vload2/vload4 and vstore2/vstore4, which need p aligned to
// the element only.
template <class T> Vec<T, 2> vload2(std::size_t i, const T *p) {
  return Vec<T, 2>(p[2 * i], p[2 * i + 1]);
}
template <class T> Vec<T, 4> vload4(std::size_t i, const T *p) {
  return Vec<T, 4>(p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]);
}
template <class T>
void vstore2(Vec<T, 2> v, std::size_t i, T *p) {
  p[2 * i] = v.x;
  p[2 * i + 1] = v.y;
}
template <class T>
void vstore4(Vec<T, 4> v, std::size_t i, T *p) {
  p[4 * i] = v.x;
  p[4 * i + 1] = v.y;
  p[4 * i + 2] = v.z;
  p[4 * i + 3] = v.w;
}

} // namespace ferry
