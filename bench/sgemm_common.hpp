// What the SGEMM programs of bench/kernels.sh share with samples/sgemm: the
// same small-integer entries (every product exact in float, so every
// program's C is the same bit for bit), and the same weighted sum of C that
// the sample prints as `weighted=`, so that the table can say they agree.
#pragma once

#include <cstddef>
#include <vector>

namespace sgemm {

inline float entryA(long long i) { return static_cast<float>((i * 7 + 3) % 11 - 5); }
inline float entryB(long long i) { return static_cast<float>((i * 5 + 1) % 9 - 4); }

inline void fill(std::vector<float> &a, std::vector<float> &b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = entryA(static_cast<long long>(i));
    b[i] = entryB(static_cast<long long>(i));
  }
}

// sum_ij (i % 5 + 1)(j % 3 + 1) c_ij, exact for integer entries.
inline long long weighted(const float *c, long long n) {
  long long sum = 0;
  for (long long i = 0; i < n; ++i)
    for (long long j = 0; j < n; ++j)
      sum += (i % 5 + 1) * (j % 3 + 1) * static_cast<long long>(c[i * n + j]);
  return sum;
}

} // namespace sgemm
