// Issue 33 (found by a review of this stop's changes): two calls whose
// target only the run knows, inside a compute, each touching buffers the
// call's arguments do not show.
//   - A virtual compute method called through a reference to a base class
//     that holds no buffers (`Base &b = d; b.step(cc)`): the override's
//     kernels ran on d's buffers, but the lambda's plan saw no buffer
//     handed over, so the host writes after it (`d.k[2] += 7`) got no line
//     and the next run's guarded copy in skipped them (the old tool
//     printed `mid 7 7` where the reference prints `mid 107 21`). Such a
//     call now touches every buffer the caller can see, and leaves their
//     device copies to the run-time state.
//   - A std::function made from a lambda that captures buffers, or an
//     object holding them, by reference, called inside a compute (`h(cc)`,
//     `poke()`): the lambda's host writes were unseen, so the next run read
//     the device's old copy (`a 2 2 2` for `a 102 1002 2`, `d.u 11 21` for
//     `d.u 13 18`). A callable whose target only the run knows now touches
//     what every lambda the enclosing function makes (but a compute's)
//     captured by reference.
//
// By hand (every buffer 8 ints, 32 B; each starts as made, so its first
// copy in is a fill). A call whose target only the run knows counts as
// reading and writing on the host what it touches (it may be any host
// code), so the next copy in of each is whole, even after a run that only
// the kernels used it in.
//   compute 1 (virtual): b.step copies u, k in (2 fills, 64 B), D::step
//     leaves u on the device; before the host writes u comes home (32);
//     b.step counts as writing u, k: in again (64); d.step needs nothing;
//     the print brings u home (32); b.step again: in again (64); the exit
//     brings u home (32). In 6 (192 B, 2 fills), out 3 (96 B), 4
//     dispatches.
//   compute 2 (std::function): R copies a, c in (2 fills, 64 B); before
//     h, a comes home (32) and a, c count as written; R copies a, c in
//     again (64); the exit brings a home (32). In 4 (128 B, 2 fills), out
//     2 (64 B), 2 dispatches.
//   compute 3 (std::function of a lambda capturing the object d): d.step
//     copies u, k in (64), leaves u on the device; before poke, u comes
//     home (32) and u, k (and a, c, which h captured) count as written;
//     d.step copies u, k in again (64); the exit brings u home (32). In 4
//     (128 B), out 2 (64 B), 2 dispatches.
//   In 14 (448 B), fills 4 (128 B); out 7 (224 B); dispatches 8.
// ferry-test: golden
// ferry-test: to_device 14 to_device_bytes 448 fills 4 fill_bytes 128
// ferry-test: from_device 7 from_device_bytes 224
// ferry-test: dispatches 8
#include <ferry/ferry.hpp>

#include <cstdio>
#include <functional>

FERRY_KERNEL void addc(ferry::KernelContext kc, int *a, const int *c) {
  a[kc.x] += c[kc.x];
}

FERRY_COMPUTE void R(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                     ferry::Buffer<int> &c) {
  cc.dispatch(addc, ferry::Range(a.size()), a, c);
}

struct Base {
  virtual ~Base() = default;
  FERRY_COMPUTE virtual void step(ferry::ComputeContext &cc) = 0;
};

struct D : Base {
  ferry::Buffer<int> u = ferry::Buffer<int>(8, 1), k = ferry::Buffer<int>(8, 2);
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) override {
    cc.dispatch(addc, ferry::Range(8), u, k);
  }
};

int main() {
  D d;
  Base &b = d;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    b.step(cc);
    d.u[1] += 100;
    d.k[2] += 7;
    b.step(cc);
    d.step(cc);
    std::printf("mid %d %d\n", d.u[1], d.u[2]);
    b.step(cc);
  });
  std::printf("d.u %d %d %d\n", d.u[0], d.u[1], d.u[2]);

  ferry::Buffer<int> a(8, 0), c(8, 1);
  std::function<void(ferry::ComputeContext &)> h = [&](ferry::ComputeContext &) {
    c[0] += 100;
    a[1] += 1000;
  };
  acc.compute([&](ferry::ComputeContext &cc) {
    R(cc, a, c);
    h(cc);
    R(cc, a, c);
  });
  std::printf("a %d %d %d, c %d\n", a[0], a[1], a[2], c[0]);

  std::function<void()> poke = [&] { d.k[3] += 5; };
  acc.compute([&](ferry::ComputeContext &cc) {
    d.step(cc);
    poke();
    d.step(cc);
  });
  std::printf("d.u %d %d\n", d.u[0], d.u[3]);
}
