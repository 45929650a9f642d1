// Issue 31: ferry::native::sqrt and friends (an extension), OpenCL C's
// native_ functions on float: faster, and accurate only to a few ulp on
// some devices. The results are printed to one decimal, far from any
// rounding boundary, so the device's and the reference execution's agree.
//
// By hand (`out` 64 floats = 256 B, 1 dispatch): the kernel writes every
// element of `out`, so nothing goes in; out comes home for the print (1,
// 256 B).
// ferry-test: golden
// ferry-test: to_device 0 to_device_bytes 0
// ferry-test: from_device 1 from_device_bytes 256 dispatches 1
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL void approximations(ferry::KernelContext kc, float *out) {
  const float i = static_cast<float>(kc.x);
  out[kc.x] = ferry::native::sqrt(i * i) + ferry::native::recip(2.0f) +
              ferry::native::divide(i, 2.0f) + ferry::native::cos(0.0f) +
              ferry::native::log2(8.0f) + ferry::native::exp(0.0) +
              ferry::native::rsqrt(4.0f) + ferry::native::powr(2.0f, 3.0f);
}

FERRY_COMPUTE void approximate(ferry::ComputeContext &cc,
                               ferry::Buffer<float> &out) {
  cc.dispatch(approximations, ferry::Range(out.size()), out);
}

int main() {
  ferry::Buffer<float> out(64);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { approximate(cc, out); });
  for (std::size_t i = 0; i < out.size(); i += 9)
    std::printf("out[%zu] = %.1f\n", i, static_cast<double>(out[i]));
}
