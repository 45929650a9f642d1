// Issue 33 (found by the generator's new `fnptr` form): a compute function
// that planned code calls directly (so it is planned as a callee, trusting
// the run-time state at its start) is also run through a function pointer
// or a std::function, twice in one compute, with a host write between the
// runs. The lambda making those calls was not planned (it calls no planned
// function directly), so the write got no line: the run-time state still
// called the device copy current, and the second run's guarded copy in
// skipped it (`a` printed 192 and `g` 17 where the reference prints 286 and
// 27). A function that calls code Ferry cannot see with the
// ComputeContext is now planned, and after such a call the device may hold
// valid copies of what it was handed (only the run-time state knows), so a
// host write after it gets its line.
//
// By hand (a, c, g: 8 ints, 32 B; a, c, g are filled, never written on
// the host before their first copy in: fills 3, 96 B). The call through a
// pointer counts as writing what it is handed on the host (it may be any
// host code), so before the second call `a` and `c` are marked stale and
// copied in again whole, where a hand-written program would copy only c's
// element 7.
//   compute 1 (fp twice): R copies a, c in (2, 64 B), brings a home (32);
//     again: a, c in (2, 64 B), a home (32). In 4 (128), out 2 (64).
//   compute 2 (R twice, planned calls): a, c in (64), a home; c[2] goes in
//     alone (4 B, partial); a home again. In 3 (68), out 2 (64).
//   compute 3 (h twice): g, a in (64), g home; again g, a in (64), g home.
//     In 4 (128), out 2 (64).
//   compute 4 (S twice): g, a in (64), g home; a[1] goes in (4 B,
//     partial); g home. In 3 (68), out 2 (64).
//   In 14 (392 B, 2 partial 8 B, fills 3 96 B), out 8 (256 B), dispatches 8.
// ferry-test: golden
// ferry-test: to_device 14 to_device_bytes 392 fills 3 fill_bytes 96
// ferry-test: from_device 8 from_device_bytes 256
// ferry-test: dispatches 8
#include <ferry/ferry.hpp>
#include <cstdio>
#include <functional>
FERRY_KERNEL void addc(ferry::KernelContext kc, int *a, const int *c) { a[kc.x] += c[kc.x]; }
FERRY_KERNEL void bump(ferry::KernelContext kc, int *g, const int *a) { g[kc.x] += a[kc.x]; }
static ferry::Buffer<int> g(8, 1);
/// Called directly below too: planned as a callee, not as an entry.
FERRY_COMPUTE void R(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                     ferry::Buffer<int> &c) {
  cc.dispatch(addc, ferry::Range(a.size()), a, c);
}
/// Reaches a global buffer.
FERRY_COMPUTE void S(ferry::ComputeContext &cc, ferry::Buffer<int> &a) {
  cc.dispatch(bump, ferry::Range(g.size()), g, a);
}
int main() {
  ferry::Buffer<int> a(8, 0), c(8, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    auto *fp = &R;
    fp(cc, a, c);
    c[7] += 94;
    fp(cc, a, c);
  });
  acc.compute([&](ferry::ComputeContext &cc) {
    R(cc, a, c);
    c[2] += 3;
    R(cc, a, c);
  });
  std::function<void(ferry::ComputeContext &, ferry::Buffer<int> &)> h = S;
  acc.compute([&](ferry::ComputeContext &cc) {
    h(cc, a);
    g[3] += 10;
    h(cc, a);
  });
  acc.compute([&](ferry::ComputeContext &cc) {
    S(cc, a);
    a[1] += 4;
    S(cc, a);
  });
  std::printf("a %d %d, c %d, g %d %d\n", a[0], a[7], c[7], g[0], g[3]);
}
