// double on the device: cl_khr_fp64 is enabled, and a device without it
// fails with a clear message when the program is built.
#include <ferry/ferry.hpp>

#include <cmath>

static double norm(double x, double y) { return std::sqrt(x * x + y * y); }

FERRY_KERNEL void mathd(ferry::KernelContext kc, const double* in,
                        double* out, const float* f, float* fout) {
  int i = kc.x;
  double x = in[i];
  double r = norm(x, 2.0) + std::sin(x) + std::exp(x * 0.1) +
             std::pow(std::fabs(x), 0.75) + std::floor(x * 3) / 3;
  r += std::fmax(x, 0.0) + std::atan(x) + std::log1p(std::fabs(x));
  out[i] = r;
  // float times a double literal computes in double, as in C++.
  fout[i] = f[i] * 0.1 + std::sqrt(f[i] * f[i]);
}
