// Three Ferry sources (kernels.h inline, solver.cpp, main.cpp): calls into
// solver.cpp are planned from its summary exactly as onefile.cpp, the same
// program in one file, plans them. Both must move the bytes worked out here.
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
#include "kernels.h"
#include "solver.h"

#include <cstdio>
#include <cstdlib>

double sumRange(ferry::Buffer<float> &b, std::size_t from, std::size_t to) {
  double s = 0;
  for (std::size_t i = from; i < to; ++i)
    s += b[i];
  return s;
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
