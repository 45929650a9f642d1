// Issue 16: covering stores as the ported suites write them.
// - Rodinia srad (and most Rodinia kernels, written over a plain range):
//   `bx = kc.x / NT; tx = kc.x % NT; ei = bx * NT + tx` is kc.x itself.
// - Rodinia kmeans: an unsigned id under `if (id < (unsigned)n)`, the cast
//   the unsigned comparison needs to build warning-free.
// - OMPDart ace: a row-major index whose width is a macro constant,
//   `f[kc.y * W + kc.x]`: it covers the buffer only when the range's
//   columns reach W, which the runtime checks (`ferry::grid`).
// And two that must not count: a block decomposition with two different
// block sizes (elements 0..11 of 20, some twice), and the constant-width
// store over half the columns (the runtime copies that buffer in).
//
// By hand (n = 20; a, b: 20 floats = 80 B; m: 20 ints = 80 B; f, g: 4 x 6
// floats = 96 B):
//   blocked(a): covers a (ei < n on a range of n + 3): no copy in.
//   overlapping(b): writes part of b: b in (80 B).
//   membership(m): covers m: no copy in.
//   plane(f) over 6 x 4: covers f: no copy in.
//   plane(g) over 3 x 4: half of each row: the runtime copies g in (96 B).
//   Exit: all five were written on the device: out 5 (80 * 3 + 96 * 2 B).
//   In 2 (176 B), out 5 (432 B), 5 dispatches.
// ferry-test: golden
// Fills: 2 of the copies in above (176 B) are of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 176 from_device 5 from_device_bytes 432
// ferry-test: fills 2 fill_bytes 176
// ferry-test: dispatches 5
#include "Print.h"

#define NT 8
#define W 6

FERRY_KERNEL void blocked(ferry::KernelContext kc, float *out, int n) {
  int bx = kc.x / NT;
  int tx = kc.x % NT;
  int ei = bx * NT + tx;
  if (ei < n)
    out[ei] = static_cast<float>(ei * 2);
}

FERRY_KERNEL void overlapping(ferry::KernelContext kc, float *out, int n) {
  int bx = kc.x / NT;
  int tx = kc.x % 4;
  int ei = bx * 4 + tx;
  if (ei < n)
    out[ei] = 1.0f;
}

FERRY_KERNEL void membership(ferry::KernelContext kc, int *member, int n) {
  unsigned id = kc.x;
  if (id < (unsigned)n)
    member[id] = static_cast<int>(id % 3);
}

FERRY_KERNEL void plane(ferry::KernelContext kc, float *f) {
  f[kc.y * W + kc.x] = static_cast<float>(kc.y * 10 + kc.x);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                       ferry::Buffer<float> &b, ferry::Buffer<int> &m,
                       ferry::Buffer<float> &f, ferry::Buffer<float> &g, int n,
                       int rows) {
  cc.dispatch(blocked, ferry::Range(n + 3), a, n);
  cc.dispatch(overlapping, ferry::Range(n), b, n);
  cc.dispatch(membership, ferry::Range(n), m, n);
  cc.dispatch(plane, ferry::Range(W, rows), f);
  cc.dispatch(plane, ferry::Range(W / 2, rows), g);
}

int main() {
  const int n = 20, rows = 4;
  ferry::Buffer<float> a(n, 5.0f), b(n, 7.0f), f(W * rows, -1.0f),
      g(W * rows, -1.0f);
  ferry::Buffer<int> m(n, 9);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, m, f, g, n, rows); });
  printBuffer("a", a);
  printBuffer("b", b);
  printBuffer("m", m);
  printBuffer("f", f);
  printBuffer("g", g);
}
