// blackscholes written by hand in raw OpenCL (see raw_common.hpp): three
// inputs written, one dispatch, two outputs read; the same kernel and check
// line as samples/blackscholes. Built as raw_blackscholes (pageable) and
// raw_blackscholes_pinned.
//
//   raw_blackscholes [N]
#include "raw_common.hpp"

#include <cmath>

static const char *Source = R"(
float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267794f;
  const float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  const float tail = rsqrt2pi * exp(-0.5f * d * d) *
                     (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0f ? 1.0f - tail : tail;
}
__kernel void price(__global const float* spot, __global const float* strike,
                    __global const float* years, __global float* call,
                    __global float* put, float rate, float volatility, int n) {
  int i = get_global_id(0);
  if (i < n) {
    const float s = spot[i], x = strike[i], t = years[i];
    const float sqrtT = sqrt(t);
    const float d1 = (log(s / x) + (rate + 0.5f * volatility * volatility) * t) /
                     (volatility * sqrtT);
    const float d2 = d1 - volatility * sqrtT;
    const float discounted = x * exp(-rate * t);
    call[i] = s * cnd(d1) - discounted * cnd(d2);
    put[i] = discounted * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
  }
})";

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const float rate = 0.02f, volatility = 0.30f;
  raw::Runtime rt;
  raw::HostArray<float> spot(rt, n), strike(rt, n), years(rt, n), call(rt, n),
      put(rt, n);
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

  cl::Program program = rt.build(Source);
  cl::Kernel kernel(program, "price");
  const std::size_t bytes = sizeof(float) * n;
  cl::Buffer dSpot(rt.context, CL_MEM_READ_ONLY, bytes),
      dStrike(rt.context, CL_MEM_READ_ONLY, bytes),
      dYears(rt.context, CL_MEM_READ_ONLY, bytes),
      dCall(rt.context, CL_MEM_WRITE_ONLY, bytes),
      dPut(rt.context, CL_MEM_WRITE_ONLY, bytes);
  kernel.setArg(0, dSpot);
  kernel.setArg(1, dStrike);
  kernel.setArg(2, dYears);
  kernel.setArg(3, dCall);
  kernel.setArg(4, dPut);
  kernel.setArg(5, rate);
  kernel.setArg(6, volatility);
  kernel.setArg(7, 0); // warm up on no options
  rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1));
  kernel.setArg(7, n);

  rt.start();
  rt.write(dSpot, spot.data(), bytes, false);
  rt.write(dStrike, strike.data(), bytes, false);
  rt.write(dYears, years.data(), bytes, false);
  rt.run(kernel, cl::NDRange(n));
  rt.read(dCall, call.data(), bytes);
  rt.read(dPut, put.data(), bytes);
  rt.report();

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
