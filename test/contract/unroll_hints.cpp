// Issue 31: unroll hints on a kernel's loops (an extension). `#pragma GCC
// unroll N`, which GCC honours in the reference build, and Clang's own
// `#pragma unroll [N]` and `#pragma nounroll` (for a reference built with
// Clang) become OpenCL C's `#pragma unroll N` before the same loop; `GCC
// unroll 1` and `nounroll` ask for none (`#pragma unroll 1`). The hint
// changes no result: every value here is a small integer, exact in floats.
//
// By hand (`in` 1024 floats = 4096 B, `out` 64 floats = 256 B, 2
// dispatches): `in` was written on the host: in (1, 4096 B). `sums` writes
// every element of `out` before `bits` reads it: nothing of `out` goes in.
// `out` comes home for the print (1, 256 B); `in` is only read.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 4096
// ferry-test: from_device 1 from_device_bytes 256 dispatches 2
#include <ferry/ferry.hpp>

#include <cstdio>

constexpr int kRow = 16;

FERRY_KERNEL void sums(ferry::KernelContext kc, const float *in, float *out) {
  float s = 0.0f;
#pragma GCC unroll 4
  for (int i = 0; i < kRow; ++i)
    s += in[kc.x * kRow + i];
  out[kc.x] = s;
}

FERRY_KERNEL void bits(ferry::KernelContext kc, float *out) {
  int v = kc.x;
  int count = 0;
#pragma GCC unroll 2
  while (v != 0) {
    count += v & 1;
    v >>= 1;
  }
  float scaled = out[kc.x];
#pragma GCC unroll 1
  for (int k = 0; k < count; ++k)
    scaled *= 2.0f;
  out[kc.x] = scaled;
}

FERRY_COMPUTE void both(ferry::ComputeContext &cc, const ferry::Buffer<float> &in,
                        ferry::Buffer<float> &out) {
  cc.dispatch(sums, ferry::Range(out.size()), in, out);
  cc.dispatch(bits, ferry::Range(out.size()), out);
}

int main() {
  ferry::Buffer<float> in(64 * kRow);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i % 7);
  ferry::Buffer<float> out(64);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { both(cc, in, out); });
  for (std::size_t i = 0; i < out.size(); i += 7)
    std::printf("out[%zu] = %.1f\n", i, static_cast<double>(out[i]));
}
