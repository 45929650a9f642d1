// A compute function (`relax`) and a dispatching helper (`smooth`) inline in
// a header, relax.h, that both Ferry sources (main.cpp, settle.cpp) include
// and call: each rewrites its own copy of them, and onefile.cpp, the same
// program as one file, must move the very same bytes.
//
// By hand (n = 1024 floats = 4096 B; scratch, a and b made with a value,
// so their first copy in is a fill):
//   compute 1, relax(scratch, b), an entry (the host holds everything):
//     smooth 1: halve scratch (rw): scratch in (1, a fill); addInto
//     scratch -> b (b rw): b in (2, a fill). smooth 2: both valid on the
//     device, nothing in. exit: main never uses scratch again, so only b
//     goes back: b out (1).
//   compute 2, settle(a, b): main only read b since compute 1 brought it
//     home, so it keeps b on the device (`acc.keepOnDevice(b)`), and
//     settle's plan starts b's device copy unknown: main.cpp's summary
//     says its compute keeps settle's parameter `b`. smooth 1: a in (3, a
//     fill); b is still valid on the device: nothing. b[1] read on the
//     host: that element out (2, 4 B; smooth 2 writes b again, so the
//     read is not widened), b's device copy still valid. smooth 2:
//     nothing in. exit: a out (3), b out (4).
// to_device 3 (12288 B, all three fills), from_device 4 (3 x 4096 + 4 =
// 12292 B), 8 dispatches. (Before the keep, b went in again in compute 2:
// 4 in; whole-buffer copies moved 16384 B out.) settle.cpp never calls relax, yet its copy of
// relax must skip scratch's copy back too (the copies are the same text):
// what main.cpp's calls leave dead is decided over every file's summary.
// ferry-test: args 1024
// ferry-test: to_device 3 to_device_bytes 12288 from_device 4 from_device_bytes 12292
// ferry-test: fills 3 fill_bytes 12288
// ferry-test: dispatches 8
#include "relax.h"
#include "settle.h"

#include <cstdio>
#include <cstdlib>

static double sum(const ferry::Buffer<float> &v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i];
  return s;
}

int main(int argc, char **argv) {
  std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1024;
  ferry::Buffer<float> scratch(n, 1.0f), a(n, 1.0f), b(n, 0.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { relax(cc, scratch, b); });
  std::printf("relax: b %.3f\n", sum(b));
  acc.compute([&](ferry::ComputeContext &cc) { settle(cc, a, b); });
  std::printf("settle: a %.3f b %.3f\n", sum(a), sum(b));
}
