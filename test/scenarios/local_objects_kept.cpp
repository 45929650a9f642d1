// Issue 33, item 4 for main's own objects: a buffer held by value inside a
// local object (`kept.u` of `State kept;`, a struct of buffers, or a class
// whose constructor makes its buffers) keeps its device copy between
// computes exactly as a local buffer does. The flow that proves main has
// not written a buffer since the previous compute follows each such buffer
// by its path; the rewriter writes `acc.keepOnDevice(kept.u);`.
//   kept:    only read between computes (`show`, by const reference): both
//            buffers kept.
//   written: main writes `written.u[5]` between computes: `u` is sent
//            again, `v` kept.
//   swapped: main swaps its two buffers between computes: both sent again.
//   fields:  a class with a constructor that makes its buffers (and writes
//            `u` in a loop: not a fill), only read between computes: kept.
//   model:   a class whose member compute function steps it, in computes
//            of their own (`model.step(cc)`): kept, as the object a member
//            compute function is called on.
//
// By hand (64 floats, 256 B per buffer), three rounds of one compute:
//   round 1: every buffer in (8, 2048 B; all but fields.u, which its
//     constructor wrote, are fills: 7, 1792 B). The kernel writes each `u`
//     and reads each `v`: the exit brings the four `u` home (4, 1024 B).
//   rounds 2 and 3: written.u, swapped.u and swapped.v in again (3,
//     768 B each round); the rest is kept. Out as round 1.
//   model (32 floats, 128 B), three more computes: the first sends its `u`
//     in (a fill); each brings it home (3, 384 B).
//   In 15 (3712 B), fills 8 (1920 B); out 15 (3456 B). Dispatches 3 x 5.
// ferry-test: golden
// ferry-test: to_device 15 to_device_bytes 3712 fills 8 fill_bytes 1920
// ferry-test: from_device 15 from_device_bytes 3456
// ferry-test: dispatches 15
#include "Print.h"

#include <utility>

FERRY_KERNEL void scale(ferry::KernelContext kc, float *u) {
  u[kc.x] = u[kc.x] * 1.5f + 1.0f;
}

FERRY_KERNEL void advect(ferry::KernelContext kc, float *u, const float *v) {
  u[kc.x] = u[kc.x] + 0.5f * v[kc.x];
}

struct State {
  ferry::Buffer<float> u;
  ferry::Buffer<float> v;
};

class Fields {
public:
  explicit Fields(int n)
      : u(static_cast<std::size_t>(n)), v(static_cast<std::size_t>(n), 2.0f) {
    for (int i = 0; i < n; ++i)
      u[static_cast<std::size_t>(i)] = static_cast<float>(i % 5);
  }
  ferry::Buffer<float> u;
  ferry::Buffer<float> v;
};

struct Model {
  explicit Model(int n) : u(static_cast<std::size_t>(n), 0.5f) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(scale, ferry::Range(u.size()), u);
  }
  ferry::Buffer<float> u;
};

FERRY_COMPUTE void advance(ferry::ComputeContext &cc, State &s) {
  cc.dispatch(advect, ferry::Range(s.u.size()), s.u, s.v);
}

FERRY_COMPUTE void advanceFields(ferry::ComputeContext &cc, Fields &f) {
  cc.dispatch(advect, ferry::Range(f.u.size()), f.u, f.v);
}

void show(const char *name, const State &s) {
  printBuffer(name, s.u);
  printBuffer(name, s.v);
}

int main() {
  State kept{ferry::Buffer<float>(64, 1.0f), ferry::Buffer<float>(64, 3.0f)};
  State written{ferry::Buffer<float>(64, 1.0f), ferry::Buffer<float>(64, 3.0f)};
  State swapped{ferry::Buffer<float>(64, 1.0f), ferry::Buffer<float>(64, 3.0f)};
  Fields fields(64);
  Model model(32);
  ferry::Accelerator acc;
  for (int round = 0; round < 3; ++round) {
    acc.compute([&](ferry::ComputeContext &cc) {
      advance(cc, kept);
      advance(cc, written);
      advance(cc, swapped);
      advanceFields(cc, fields);
    });
    show("kept", kept);
    show("written", written);
    show("swapped", swapped);
    printBuffer("fields", fields.u);
    written.u[5] = 7.0f;
    std::swap(swapped.u, swapped.v);
  }
  // (A compute keeps only into the very next one: a loop of its own.)
  for (int round = 0; round < 3; ++round) {
    acc.compute([&](ferry::ComputeContext &cc) { model.step(cc); });
    printBuffer("model", model.u);
  }
}
