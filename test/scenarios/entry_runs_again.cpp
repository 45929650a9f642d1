// Issue 33 (found while fixing the review of the cross-file planning): a
// compute function that code Ferry does not plan runs more than once in one
// compute (through a function pointer, a std::function). Planned alone, as
// an entry, it starts from "the device holds nothing", as where a compute
// starts. But after its first run the run-time state says the device copy
// is current, so a host write before its first copy in added no line, and a
// guarded copy (its own, after a join, or its planned callee's) trusted the
// run-time state and skipped the write: `F`'s second and third runs lost
// their `a[0] += 100` (103 where the reference prints 303), `G` lost the
// lambda's `b[2] += 5`, and `K` its static local's `h[0] += 10`. Such an
// entry now starts by telling the run-time state its device copies are
// stale, where its lines or its callees' trust that state. `P` reaches its
// buffer through a pointer that may be null: its line is under `if (p)`
// (found by a review: first written before P's own check, it crashed).
//
// By hand (a, b 8 ints, 32 B; h 4 ints, 16 B; none a fill, as each is
// written on the host before its first copy in):
//   3 x F: H copies `a` in, F's exit brings it home: in 3 (96), out 3 (96).
//   3 x G: one copy in and one home each (round 1's first dispatch copies
//          in, its second needs nothing): in 3 (96), out 3 (96); 4 dispatches.
//   3 x K: H copies `h` in, the exit (round 2: the print) brings it home:
//          in 3 (48), out 3 (48).
//   3 x P (c 8 ints, 32 B; the first with a null pointer, which moves
//          nothing): H copies `c` in, the exit brings it home: in 2 (64),
//          out 2 (64).
// In 11 (304 B), out 11 (304 B), dispatches 12.
// ferry-test: golden
// ferry-test: to_device 11 to_device_bytes 304 fills 0
// ferry-test: from_device 11 from_device_bytes 304
// ferry-test: dispatches 12
#include <ferry/ferry.hpp>

#include <cstdio>
#include <functional>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *a) { a[kc.x] += 1; }

FERRY_COMPUTE void H(ferry::ComputeContext &cc, ferry::Buffer<int> &a) {
  cc.dispatch(inc, ferry::Range(a.size()), a);
}

/// Writes the host copy, then hands the buffer to a planned callee.
FERRY_COMPUTE void F(ferry::ComputeContext &cc, ferry::Buffer<int> &a) {
  a[0] += 100;
  H(cc, a);
}

/// A join before its second dispatch makes that copy in guarded.
FERRY_COMPUTE void G(ferry::ComputeContext &cc, ferry::Buffer<int> &b,
                     int round) {
  if (round % 2 == 1)
    cc.dispatch(inc, ferry::Range(b.size()), b);
  cc.dispatch(inc, ferry::Range(b.size()), b);
}

/// A static local, written on the host and handed to a planned callee.
FERRY_COMPUTE void K(ferry::ComputeContext &cc, int round) {
  static ferry::Buffer<int> h(4, 0);
  h[0] += 10;
  H(cc, h);
  if (round == 2)
    std::printf("h %d %d\n", h[0], h[1]);
}

/// Reaches its buffer through a pointer, which may be null.
FERRY_COMPUTE void P(ferry::ComputeContext &cc, ferry::Buffer<int> *p) {
  if (!p)
    return;
  (*p)[0] += 100;
  H(cc, *p);
}

int main() {
  ferry::Buffer<int> a(8, 0), b(8, 0), c(8, 0);
  ferry::Accelerator acc;
  void (*f)(ferry::ComputeContext &, ferry::Buffer<int> &) = F;
  std::function<void(ferry::ComputeContext &, ferry::Buffer<int> &, int)> g = G;
  void (*k)(ferry::ComputeContext &, int) = K;
  void (*p)(ferry::ComputeContext &, ferry::Buffer<int> *) = P;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int i = 0; i < 3; ++i)
      f(cc, a);
    for (int r = 0; r < 3; ++r) {
      b[2] += 5;
      g(cc, b, r);
    }
    for (int r = 0; r < 3; ++r)
      k(cc, r);
    p(cc, nullptr);
    p(cc, &c);
    p(cc, &c);
  });
  std::printf("a %d %d\n", a[0], a[1]);
  std::printf("b %d %d %d\n", b[0], b[2], b[7]);
  std::printf("c %d %d\n", c[0], c[1]);
}
