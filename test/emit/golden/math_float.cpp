// <cmath> on float: std:: and C spellings map onto OpenCL C's built-ins, and
// the integer overloads of abs, min, max and clamp onto the integer ones.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

constexpr int kResults = 24;

FERRY_KERNEL void mathf(ferry::KernelContext kc, const float* in, float* out,
                        const int* ints, int* iout) {
  int i = kc.x;
  float x = in[i];
  float a = std::fabs(x) + 0.5f;
  float* r = out + i * kResults;
  r[0] = std::sqrt(a) + std::cbrt(x);
  r[1] = std::sin(x) + std::cos(x);
  r[2] = std::tan(x * 0.25f) + std::atan2(x, a);
  r[3] = std::exp(x) + std::exp2(x);
  r[4] = std::log(a) + std::log2(a) + std::log10(a);
  r[5] = std::pow(a, 1.5f) + powf(a, 0.5f);
  r[6] = std::floor(x) + std::ceil(x) + std::round(x) + std::trunc(x);
  r[7] = std::fmin(x, 0.5f) + std::fmax(x, -0.5f);
  r[8] = std::abs(x) + fabsf(x);
  r[9] = std::min(x, 0.25f) + std::max(x, -0.25f);
  r[10] = std::clamp(x, -0.25f, 0.25f);
  r[11] = std::fmod(x, 0.75f);
  r[12] = std::hypot(x, a);
  r[13] = std::tanh(x) + std::sinh(x) + std::cosh(x);
  r[14] = std::asin(x / (a + 1)) + std::acos(x / (a + 1));
  r[15] = std::atan(x);
  r[16] = sqrtf(a) + expf(-a);
  r[17] = std::fma(x, x, a);
  r[18] = std::copysign(a, x);
  r[19] = std::ldexp(x, 3);
  r[20] = std::isnan(x) ? 1.0f : 0.0f;
  r[21] = std::isfinite(x / (x - x)) ? 1.0f : 0.0f;
  r[22] = std::expm1(x * 0.5f) + std::log1p(a);
  r[23] = std::erf(x);
  int v = ints[i];
  iout[i] = std::abs(v) + std::min(v, 7) + std::max(v, -7) +
            std::clamp(v, -3, 3) + abs(v - 2);
}
