// Issue 33 (found by hand, reading the limit `docs/limitations.md` stated
// for a std::function made from a lambda of another function): a call
// through a std::function in a compute function may run a lambda or a
// function object the calling function does not see being made. Ferry
// followed only the lambdas that function makes itself, so a host write
// such a callable made was lost: `app.poke(100)` runs a lambda App's
// constructor made, capturing `this`; `between(5)` runs main's lambda
// capturing `m`, and then a `Bump` holding a pointer to `n`. The tool of
// d1357fa printed `app: 3.0 3.0` and `m: 12 12, n: 4 4` where the
// reference prints `app: 103.0 3.0` and `m: 22 12, n: 4 14`. Such a call
// now counts as reading and writing every buffer of the element types the
// unit's lambdas and function objects reach (and, in a target of several
// Ferry sources, those their summaries list, `callable_buffers`):
// `cc.hostWritesAllOf<float>()` and `<int>()` before it.
//
// By hand (app.b: 16 floats, 64 B; m, n: 8 ints, 32 B each; each first
// copy in is a fill):
//   compute 1 (advance): app.b in (a fill), home before poke (unnamed),
//     in again, home at the end: in 2 (128 B), out 2 (128 B).
//   compute 2 (doubleAround on m, then on n): m in (a fill), home before
//     between (unnamed), in again; n in (a fill); before n's between both
//     come home (unnamed), and n goes in again; the exit brings n home:
//     in 4 (128 B), out 4 (128 B).
//   In 6 (256 B, 3 fills of 128 B), out 6 (256 B, 4 unnamed of 160 B),
//   dispatches 6: what a careful hand-written port moves, since each host
//   write between two kernels needs its buffer home and back.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 256 fills 3 fill_bytes 128
// ferry-test: from_device 6 from_device_bytes 256
// ferry-test: unnamed_from_device 4 unnamed_from_device_bytes 160
// ferry-test: dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>
#include <functional>

FERRY_KERNEL void inc(ferry::KernelContext kc, float *a) { a[kc.x] += 1.f; }

FERRY_KERNEL void twice(ferry::KernelContext kc, int *n) { n[kc.x] *= 2; }

// A lambda a constructor makes, capturing `this`.
struct App {
  ferry::Buffer<float> b = ferry::Buffer<float>(16, 1.f);
  std::function<void(int)> poke;
  App() {
    poke = [this](int v) { b[2] += static_cast<float>(v); };
  }
};

// A function object holding a pointer to a buffer.
struct Bump {
  ferry::Buffer<int> *n;
  void operator()(int v) const { (*n)[1] += v; }
};

FERRY_COMPUTE void advance(ferry::ComputeContext &cc, App &app) {
  cc.dispatch(inc, ferry::Range(16), app.b);
  app.poke(100);
  cc.dispatch(inc, ferry::Range(16), app.b);
}

FERRY_COMPUTE void doubleAround(ferry::ComputeContext &cc,
                                ferry::Buffer<int> &n,
                                const std::function<void(int)> &between) {
  cc.dispatch(twice, ferry::Range(n.size()), n);
  between(5);
  cc.dispatch(twice, ferry::Range(n.size()), n);
}

int main() {
  App app;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { advance(cc, app); });
  std::printf("app: %.1f %.1f\n", app.b[2], app.b[3]);

  ferry::Buffer<int> n(8, 1);
  ferry::Buffer<int> m(8, 3);
  // A lambda of main's, capturing main's buffer, called in a compute
  // function that sees only a std::function.
  std::function<void(int)> addToM = [&m](int v) { m[0] += v; };
  acc.compute([&](ferry::ComputeContext &cc) {
    doubleAround(cc, m, addToM);
    doubleAround(cc, n, Bump{&n});
  });
  std::printf("m: %d %d, n: %d %d\n", m[0], m[1], n[0], n[1]);
}
