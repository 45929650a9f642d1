// blackscholes: European call and put prices for a batch of options. Three
// input buffers (spot, strike, years to expiry) and two output buffers (call,
// put), float math built-ins (std::exp, std::log, std::sqrt, std::fabs) and
// the cumulative normal distribution as the classic polynomial in std::exp,
// called from the kernel as an ordinary function.
//
//   blackscholes [N]
//
// Transfers, by hand, for the default 1024 options (floats, 4096 B a buffer):
//   `spot`, `strike`, `years` are read by the kernel and stale on the
//   device: in (3, 12288 B).
//   `call` and `put` are stored at [kc.x] under `if (kc.x < n)` by every
//   work-item of the 1024-item range: fully overwritten, no copy in.
//   exit: `call` and `put` are stale on the host and the caller reads them:
//   out (2, 8192 B); the inputs were never written: nothing.
// In 3 (12288 B), out 2 (8192 B), 1 dispatch.
//
// The prices are printed to a few digits only: the device's exp and log may
// differ from the host's in the last bit.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 12288 from_device 2 from_device_bytes 8192
// ferry-test: dispatches 1
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Cumulative normal distribution (Abramowitz and Stegun 26.2.17).
float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267794f;
  const float k = 1.0f / (1.0f + 0.2316419f * std::fabs(d));
  const float tail = rsqrt2pi * std::exp(-0.5f * d * d) *
                     (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0f ? 1.0f - tail : tail;
}

FERRY_KERNEL void price(ferry::KernelContext kc, const float *spot,
                        const float *strike, const float *years, float *call,
                        float *put, float rate, float volatility, int n) {
  if (kc.x < n) {
    const float s = spot[kc.x], x = strike[kc.x], t = years[kc.x];
    const float sqrtT = std::sqrt(t);
    const float d1 = (std::log(s / x) + (rate + 0.5f * volatility * volatility) * t) /
                     (volatility * sqrtT);
    const float d2 = d1 - volatility * sqrtT;
    const float discounted = x * std::exp(-rate * t);
    call[kc.x] = s * cnd(d1) - discounted * cnd(d2);
    put[kc.x] = discounted * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
  }
}

FERRY_COMPUTE void blackScholes(ferry::ComputeContext &cc,
                                ferry::Buffer<float> &spot,
                                ferry::Buffer<float> &strike,
                                ferry::Buffer<float> &years,
                                ferry::Buffer<float> &call,
                                ferry::Buffer<float> &put, float rate,
                                float volatility) {
  const int n = static_cast<int>(spot.size());
  cc.dispatch(price, ferry::Range(n), spot, strike, years, call, put, rate,
              volatility, n);
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: blackscholes [N]\n"
    "  N  options, 1 to 16777216 (default 1024)\n";

[[noreturn]] void usage(int status) {
  std::fputs(kUsage, status == 0 ? stdout : stderr);
  std::exit(status);
}

// argv[index] as a whole number from `low` to `high`; `fallback` if absent.
int intArgument(int argc, char **argv, int index, const char *name, int low,
                int high, int fallback) {
  if (index >= argc)
    return fallback;
  char *end = nullptr;
  errno = 0;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || errno != 0 || value < low ||
      value > high) {
    std::fprintf(stderr,
                 "blackscholes: %s must be a whole number from %d to %d, "
                 "not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 2) {
    std::fprintf(stderr, "blackscholes: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "N", 1, 1 << 24, 1024);
  const float rate = 0.02f, volatility = 0.30f;

  ferry::Buffer<float> spot(n), strike(n), years(n), call(n), put(n);
  unsigned state = 2024;
  auto uniform = [&state](float lo, float hi) {
    state = state * 1664525u + 1013904223u;
    return lo + (hi - lo) * static_cast<float>(state >> 8) / 16777216.0f;
  };
  for (int i = 0; i < n; ++i) {
    spot[i] = uniform(5.0f, 30.0f);
    strike[i] = uniform(5.0f, 40.0f);
    years[i] = uniform(0.25f, 10.0f);
  }

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    blackScholes(cc, spot, strike, years, call, put, rate, volatility);
  });

  // A few options, then the sums and put-call parity, C - P = S - X e^(-rT).
  for (int i = 0; i < n && i < 3; ++i)
    std::printf("S=%.2f X=%.2f T=%.2f: call %.2f put %.2f\n", spot[i],
                strike[i], years[i], call[i], put[i]);
  double callSum = 0.0, putSum = 0.0, parityError = 0.0;
  for (int i = 0; i < n; ++i) {
    callSum += call[i];
    putSum += put[i];
    const double parity = call[i] - put[i] -
                          (spot[i] - strike[i] * std::exp(-rate * years[i]));
    parityError = std::fabs(parity) > parityError ? std::fabs(parity) : parityError;
  }
  std::printf("check: n=%d sum(call)=%.4g sum(put)=%.4g parity %s\n", n, callSum,
              putSum, parityError < 1e-3 ? "holds" : "broken");
  return 0;
}
