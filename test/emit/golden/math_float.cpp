// <cmath> on float: std:: and C spellings map onto OpenCL C's built-ins.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

FERRY_KERNEL void mathf(ferry::KernelContext kc, const float* in, float* out,
                        const int* ints, int* iout) {
  int i = kc.x;
  float x = in[i];
  float a = std::fabs(x) + 0.5f;
  float r = 0;
  r += std::sqrt(a) + std::sin(x) + std::cos(x) + std::tan(x * 0.25f);
  r += std::exp(x * 0.1f) + std::log(a) + std::pow(a, 1.5f) + std::floor(x);
  r += std::ceil(x) + std::round(x) + std::fmin(x, 0.5f) + std::fmax(x, -0.5f);
  r += std::abs(x) + std::min(x, 1.0f) + std::max(x, -1.0f);
  r += std::clamp(x, -0.25f, 0.25f) + std::trunc(x) + std::fmod(x, 0.75f);
  r += std::atan2(x, a) + std::hypot(x, a) + std::cbrt(x) + std::log10(a);
  r += std::exp2(x) + std::log2(a) + std::tanh(x) + std::asin(x / (a + 1));
  r += sqrtf(a) + fabsf(x) + powf(a, 0.5f) + expf(-a) + std::fma(x, x, a);
  r += std::copysign(a, x) + std::ldexp(x, 3);
  r += std::isnan(x) ? 1.0f : 0.0f;
  out[i] = r;
  int v = ints[i];
  iout[i] = std::abs(v) + std::min(v, 7) + std::max(v, -7) +
            std::clamp(v, -3, 3) + abs(v - 2);
}
