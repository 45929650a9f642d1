#pragma once
// Output helpers shared by the Parboil ports. What they print is what the
// rewritten program must reproduce on every policy, so floating-point values
// are printed to 4 significant digits: the device's sin/cos/rsqrt may differ
// from the host's in the last bits, and rounding hides that.
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdio>

// Integers (and integer-valued floats): exact values and a checksum.
template <class T> void printExact(const char *name, const ferry::Buffer<T> &b) {
  long long sum = 0;
  std::printf("%s:", name);
  for (std::size_t i = 0; i < b.size(); ++i) {
    const long long v = static_cast<long long>(b[i]);
    sum = (sum * 31 + v) % 1000000007;
    if (i < 8)
      std::printf(" %lld", v);
  }
  std::printf("%s check=%lld\n", b.size() > 8 ? " ..." : "", sum);
}

// A float to 4 significant digits, with magnitudes below 1e-3 (rounding
// noise around a true zero, whose sign and digits vary) printed as 0.
inline void printRounded(double v) {
  std::printf(" %.4g", std::fabs(v) < 1e-3 ? 0.0 : v);
}

// Floats: the first few and the sums of the values and their magnitudes,
// each to 4 significant digits.
template <class T> void printApprox(const char *name, const T *v, std::size_t n) {
  double sum = 0.0, abs = 0.0;
  std::printf("%s:", name);
  for (std::size_t i = 0; i < n; ++i) {
    sum += v[i];
    abs += std::fabs(v[i]);
    if (i < 6)
      printRounded(v[i]);
  }
  std::printf("%s sum", n > 6 ? " ..." : "");
  printRounded(sum);
  std::printf(" abs");
  printRounded(abs);
  std::printf("\n");
}

template <class T> void printApprox(const char *name, const ferry::Buffer<T> &b) {
  printApprox(name, b.data(), b.size());
}
