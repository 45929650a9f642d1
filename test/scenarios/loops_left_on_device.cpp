// Time loops whose computes leave their buffers on the device until the
// loop ends (analyses/lifetime/LeftOnDeviceInLoops.h): no code of the loop
// but the computes' kernels uses them, so the rewriter puts the loop in a
// block that starts with `ferry::HomeAtScopeEnd ferry_home_N(acc, …);`,
// and each buffer comes home once, when the block ends: after the last
// trip, at a `break`, at a `return` inside the loop, and when an exception
// thrown by host code inside it leaves it. Beside them, a loop that reads
// a buffer on the host every trip keeps its copies home.
//
// By hand (floats, 64 = 256 B each):
//   1. main's loop, 4 trips of `advance` (u from v) and `relax` (v): u and
//      v go in once, as fills (both still hold what they were made with):
//      in 2, 512 B. Out: both, once, at the block's end: 2, 512 B
//      (before: 8, one per compute and buffer it writes).
//   2. A loop that adds v[0] on the host each trip: no block. v is kept
//      (brought home by loop 1, and main has not written it since): in 0,
//      out 3.
//   3. main writes u[3], then a `while (true)` of `advance` alone, left by
//      a `break` after 3 trips: u goes in (the block carries only the
//      states its own computes set, and the host wrote u before it), v is
//      kept: in 1. `advance` only reads v, so the block holds u alone: out
//      1 at the `break` (before: 3).
//   4. runUntil(acc, u, v, 5, 2): its first line forgets both device
//      copies (main may have written them), so trip 1 copies both in (2,
//      512 B); the `return` at s == 2 ends the block: out 2 (before: 4).
//   5. runChecked(acc, v): forgets v, copies it in once (1); host code in
//      the loop throws at k == 2, after two computes, and the block brings
//      v home as the exception leaves: out 1 (before: 2). tryChecked
//      catches it and prints its message.
// In 6 (1536 B), 2 of them fills (512 B); out 9 (2304 B), where each
// compute bringing home what it wrote moved 20 (5120 B); dispatches 8 + 3
// + 3 + 4 + 2 = 20.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 1536 fills 2 fill_bytes 512
// ferry-test: from_device 9 from_device_bytes 2304
// ferry-test: dispatches 20
#include "Print.h"

#include <stdexcept>

FERRY_KERNEL void advance(ferry::KernelContext kc, float *u, const float *v) {
  u[kc.x] = u[kc.x] + 0.5f * v[kc.x];
}

FERRY_KERNEL void relax(ferry::KernelContext kc, float *v) {
  v[kc.x] = v[kc.x] * 0.5f + 1.0f;
}

FERRY_COMPUTE void stepU(ferry::ComputeContext &cc, ferry::Buffer<float> &u,
                         const ferry::Buffer<float> &v) {
  cc.dispatch(advance, ferry::Range(u.size()), u, v);
}

FERRY_COMPUTE void stepV(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(relax, ferry::Range(v.size()), v);
}

/// Host code that may throw: it touches no buffer.
static void check(int step, int limit) {
  if (step >= limit)
    throw std::runtime_error("step limit " + std::to_string(limit));
}

/// Runs up to `steps` steps, returning from inside the loop at `stopAt`.
static int runUntil(ferry::Accelerator &acc, ferry::Buffer<float> &u,
                    ferry::Buffer<float> &v, int steps, int stopAt) {
  for (int s = 0; s < steps; ++s) {
    if (s == stopAt)
      return s;
    acc.compute([&](ferry::ComputeContext &cc) { stepU(cc, u, v); });
    acc.compute([&](ferry::ComputeContext &cc) { stepV(cc, v); });
  }
  return steps;
}

/// Relaxes v until `check` throws.
static void runChecked(ferry::Accelerator &acc, ferry::Buffer<float> &v) {
  for (int k = 0;; ++k) {
    check(k, 2);
    acc.compute([&](ferry::ComputeContext &cc) { stepV(cc, v); });
  }
}

static void tryChecked(ferry::Accelerator &acc, ferry::Buffer<float> &v) {
  try {
    runChecked(acc, v);
  } catch (const std::runtime_error &e) {
    std::printf("stopped: %s\n", e.what());
  }
}

int main() {
  ferry::Buffer<float> u(64, 1.0f), v(64, 6.0f);
  ferry::Accelerator acc;
  for (int s = 0; s < 4; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { stepU(cc, u, v); });
    acc.compute([&](ferry::ComputeContext &cc) { stepV(cc, v); });
  }
  printBuffer("u", u);

  float sum = 0.0f;
  for (int k = 0; k < 3; ++k) {
    acc.compute([&](ferry::ComputeContext &cc) { stepV(cc, v); });
    sum += v[0];
  }
  std::printf("sum %.3f\n", sum);

  u[3] = 50.0f;
  int s = 0;
  while (true) {
    acc.compute([&](ferry::ComputeContext &cc) { stepU(cc, u, v); });
    if (++s == 3)
      break;
  }
  printBuffer("u", u);

  int ran = runUntil(acc, u, v, 5, 2);
  std::printf("ran %d\n", ran);
  printBuffer("u", u);
  printBuffer("v", v);

  tryChecked(acc, v);
  printBuffer("v", v);
  return 0;
}
