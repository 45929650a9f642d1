// Shared by the end-to-end programs: each runs a golden input's kernels
// through Ferry (on PoCL in ctest) and compares what they computed with the
// reference execution of the same kernels, called here as plain C++ over the
// same range: exactly for integers, to a relative 1e-5 for floating point
// (relative to the larger of the value and 1, so a result near zero is
// compared to 1e-5 absolutely).
#pragma once

#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

namespace check {

inline std::mt19937 &rng() {
  static std::mt19937 engine([] {
    const char *seed = std::getenv("FERRY_TEST_SEED");
    return seed ? static_cast<unsigned>(std::strtoul(seed, nullptr, 10))
                : 20261122u;
  }());
  return engine;
}

template <class T> T uniform(T lo, T hi) {
  if constexpr (std::is_floating_point_v<T>)
    return std::uniform_real_distribution<T>(lo, hi)(rng());
  else
    return static_cast<T>(
        std::uniform_int_distribution<long long>(lo, hi)(rng()));
}

template <class B, class T> void fill(B &b, T lo, T hi) {
  for (auto &v : b)
    v = uniform<T>(lo, hi);
}

template <class T> std::vector<T> copy(const ferry::Buffer<T> &b) {
  return std::vector<T>(b.begin(), b.end());
}

/// Runs `kernel` on the host over nx*ny*nz work-items, as the reference
/// execution does.
template <class K, class... A>
void host(K kernel, int nx, int ny, int nz, A... args) {
  ferry::KernelContext kc{0, 0, 0, nx, ny, nz};
  for (kc.z = 0; kc.z < nz; ++kc.z)
    for (kc.y = 0; kc.y < ny; ++kc.y)
      for (kc.x = 0; kc.x < nx; ++kc.x)
        kernel(kc, args...);
}

inline int failures = 0;
inline int compared = 0;

template <class T> bool same(T device, T reference) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(device) || std::isnan(reference))
      return std::isnan(device) && std::isnan(reference);
    if (std::isinf(device) || std::isinf(reference))
      return device == reference;
    double scale = std::fmax(1.0, std::fmax(std::fabs(double(device)),
                                            std::fabs(double(reference))));
    return std::fabs(double(device) - double(reference)) <= 1e-5 * scale;
  } else {
    return device == reference;
  }
}

template <class T> void print(const T &v) {
  if constexpr (std::is_floating_point_v<T>)
    std::printf("%.9g", double(v));
  else if constexpr (std::is_signed_v<T>)
    std::printf("%lld", static_cast<long long>(v));
  else
    std::printf("%llu", static_cast<unsigned long long>(v));
}

/// Element by element; a struct compares through `fields`, a callable that
/// calls its argument on each member pair.
template <class T, class R>
void values(const char *what, const ferry::Buffer<T> &device,
            const std::vector<R> &reference) {
  if (device.size() != reference.size()) {
    std::printf("%s: %zu elements on the device, %zu in the reference\n",
                what, device.size(), reference.size());
    ++failures;
    return;
  }
  int shown = 0;
  for (std::size_t i = 0; i < device.size(); ++i) {
    ++compared;
    if (!same<T>(device[i], reference[i])) {
      if (shown++ < 5) {
        std::printf("%s[%zu]: device ", what, i);
        print(device[i]);
        std::printf(", reference ");
        print(reference[i]);
        std::printf("\n");
      }
      ++failures;
    }
  }
}

/// A struct's member, element by element.
template <class T, class M>
void member(const char *what, const ferry::Buffer<T> &device,
            const std::vector<T> &reference, M T::*field) {
  int shown = 0;
  for (std::size_t i = 0; i < device.size(); ++i) {
    ++compared;
    if (!same(device[i].*field, reference[i].*field)) {
      if (shown++ < 5) {
        std::printf("%s[%zu]: device ", what, i);
        print(device[i].*field);
        std::printf(", reference ");
        print(reference[i].*field);
        std::printf("\n");
      }
      ++failures;
    }
  }
}

inline int report(const char *name) {
  std::printf("%s: %d values compared, %d differ\n", name, compared,
              failures);
  return failures == 0 && compared > 0 ? 0 : 1;
}

} // namespace check
