// The chain program (main.cpp, solver.cpp, kernels.h) as one file: the
// multi-file form must plan exactly what this plans. Working as in main.cpp.
//
// By hand (n = 1024 floats = 4096 B; a and b made with a value, so their
// first copy in is a fill):
//   ramp(a) writes a on the host (a made with 0: no copy back needed).
//   step 1: scale a (rw), addTo a -> b (rw): a copied in (1), b filled (1).
//   total(b) reads b on the host: b back (1).
//   step 2: a still valid on the device; b was only read on the host, so
//   its device copy is still valid too: nothing copied in. It writes b.
//   bump(b) reads and writes b on the host: b back (2); the device copy is
//   then stale.
//   step 3: b copied in (3).
//   exit: a back (3), b back (4).
// to_device 3 (12288 B, of which 1 fill of 4096 B), from_device 4 (16384 B).
// Had solver.cpp been a call Ferry cannot see, every call would copy a and b
// both ways.
// ferry-test: args 1024
// ferry-test: to_device 3 to_device_bytes 12288 from_device 4 from_device_bytes 16384
// ferry-test: fills 1 fill_bytes 4096
// ferry-test: dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>
#include <cstdlib>

FERRY_KERNEL inline void scale(ferry::KernelContext kc, FERRY_RW float *a,
                               float by) {
  if (kc.x < kc.maxX)
    a[kc.x] *= by;
}

FERRY_KERNEL inline void addTo(ferry::KernelContext kc, FERRY_RO const float *a,
                               FERRY_RW float *b) {
  if (kc.x < kc.maxX)
    b[kc.x] += a[kc.x];
}

double sumRange(ferry::Buffer<float> &b, std::size_t from, std::size_t to) {
  double s = 0;
  for (std::size_t i = from; i < to; ++i)
    s += b[i];
  return s;
}

void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
          ferry::Buffer<float> &b) {
  cc.dispatch(scale, ferry::Range(a.size()), a, 2.0f);
  cc.dispatch(addTo, ferry::Range(a.size()), a, b);
}

void ramp(ferry::Buffer<float> &a) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(i % 7);
}

double total(ferry::Buffer<float> &b) { return sumRange(b, 0, b.size()); }

void bump(ferry::Buffer<float> &b, float by) {
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] += by;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                       ferry::Buffer<float> &b) {
  ramp(a);
  step(cc, a, b);
  std::printf("after 1: %.1f\n", total(b));
  step(cc, a, b);
  bump(b, 1.0f);
  step(cc, a, b);
}

int main(int argc, char **argv) {
  std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1024;
  ferry::Buffer<float> a(n, 0.0f), b(n, 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b); });
  double sa = 0, sb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sa += a[i];
    sb += b[i];
  }
  std::printf("a %.1f b %.1f\n", sa, sb);
}
