// Issue 16, item 9: stores whose index is a grid, `a[row * width + col]` with
// the width a scalar argument, cover the buffer when the columns reach the
// width, which only the run knows: the rewriter hands the bounds to the
// runtime (`ferry::wo(b, ferry::grid(…))`), which copies in only when they
// fall short.
//  * `product` (PolyBench 2mm's `tmp`): a 2-D range rounded up to 8 x 4,
//    guarded by `i < ni && j < nj`, zeroes `tmp[i * nj + j]` and adds into
//    it: every element is defined before it is read.
//  * `initialize` (Rodinia cfd): over a 1-D range, each work-item stores
//    `vars[i + j * nelr]` for j < NVAR, a macro.
//  * `product` again over a range of half the columns: only part of `tmp`
//    is written, so its host values must reach the device first.
//  * `rowsOf`: a row per work-item, `m[r * cols + j]` for j < cols.
//
// By hand (a: 6 x 5 ints = 120 B, b: 5 x 7 = 140 B, tmp: 6 x 7 = 168 B,
// vars: 5 x 9 = 180 B, m: 4 x 6 = 96 B): a, b in (2: 260 B); tmp, vars, m
// none for the dispatches over their whole width; the half-range dispatch
// needs tmp in (168 B), after the host rewrote it. Out: tmp twice (the host
// prints it between, 2 x 168 B), vars once (180 B), m once (96 B).
// In 3 (428 B), out 4 (612 B).
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 428 from_device 4 from_device_bytes 612
// ferry-test: dispatches 4
#include "Print.h"

#define NVAR 5

FERRY_KERNEL void product(ferry::KernelContext kc, const int *a, const int *b,
                          int *tmp, int ni, int nj, int nk) {
  int j = kc.x;
  int i = kc.y;
  if (i < ni && j < nj) {
    tmp[i * nj + j] = 0;
    for (int k = 0; k < nk; ++k)
      tmp[i * nj + j] += a[i * nk + k] * b[k * nj + j];
  }
}

FERRY_KERNEL void initialize(ferry::KernelContext kc, int *vars, int nelr) {
  const int i = kc.x;
  if (i >= nelr)
    return;
  for (int j = 0; j < NVAR; j++)
    vars[i + j * nelr] = 10 * j + i;
}

FERRY_KERNEL void rowsOf(ferry::KernelContext kc, int *m, int cols) {
  for (int j = 0; j < cols; ++j)
    m[kc.x * cols + j] = kc.x - j;
}

static int roundUp(int n, int m) { return (n + m - 1) / m * m; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, const ferry::Buffer<int> &a,
                       const ferry::Buffer<int> &b, ferry::Buffer<int> &tmp,
                       ferry::Buffer<int> &vars, ferry::Buffer<int> &m,
                       int ni, int nj, int nk, int nelr) {
  cc.dispatch(product, ferry::Range(roundUp(nj, 8), roundUp(ni, 4)), a, b, tmp,
              ni, nj, nk);
  cc.dispatch(initialize, ferry::Range(roundUp(nelr, 16)), vars, nelr);
  cc.dispatch(rowsOf, ferry::Range(m.size() / 6), m, 6);
  printBuffer("tmp", tmp);
  for (int e = 0; e < ni * nj; ++e)
    tmp[e] = -1;
  cc.dispatch(product, ferry::Range(nj / 2, ni), a, b, tmp, ni, nj, nk);
}

int main() {
  const int ni = 6, nj = 7, nk = 5, nelr = 9;
  ferry::Buffer<int> a(ni * nk), b(nk * nj), tmp(ni * nj, 99),
      vars(NVAR * nelr, 99), m(4 * 6, 99);
  for (int e = 0; e < ni * nk; ++e)
    a[e] = e % 7;
  for (int e = 0; e < nk * nj; ++e)
    b[e] = e % 5 - 2;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, a, b, tmp, vars, m, ni, nj, nk, nelr);
  });
  printBuffer("tmp", tmp);
  printBuffer("vars", vars);
  printBuffer("m", m);
}
