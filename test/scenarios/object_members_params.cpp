// The twin of object_members.cpp with the buffers as parameters: the same
// kernels and calls, each buffer passed by reference (a local buffer for
// the local object's). Within each compute it moves exactly the bytes its
// twin moves (see the hand count there). Between computes main only reads
// `state`, its own buffer here, so Ferry keeps it on the device before the
// second and the third compute (`acc.keepOnDevice(state)`, as the twin
// keeps `sim.state`). Before the second, element 1 of the device copy it
// carries over is stale (kick() wrote it at the end of the first):
// sample() copies in that element (4 B). sample() only reads it, so before
// the third it is valid, and the lambda's first smooth() does not copy it
// in. `next`, which the second compute does not use, is carried through it
// to the third (`acc.keepOnDevice(next)` before both). It saves nothing
// here, where `next` is as long as `state`; Ferry cannot prove that, and
// where `next` were longer, smooth()'s first launch (over `state.size()`)
// would leave its tail stale and the next launch would copy it in. In 4
// (144 B), out 8 (900 B): what the twin moves.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 144 from_device 8 from_device_bytes 900
// ferry-test: dispatches 10
#include "Print.h"

FERRY_KERNEL void blur(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = 0.5f * in[kc.x] + 0.5f * in[(kc.x + 1) % kc.maxX];
}

static void seed(ferry::Buffer<float> &state) {
  for (std::size_t i = 0; i < state.size(); ++i)
    state[i] = static_cast<float>(i % 5);
}

static void kick(ferry::Buffer<float> &state) { state[1] += 10.0f; }

FERRY_COMPUTE void smooth(ferry::ComputeContext &cc,
                          ferry::Buffer<float> &state,
                          ferry::Buffer<float> &next, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    cc.dispatch(blur, ferry::Range(state.size()), state, next);
    cc.dispatch(blur, ferry::Range(state.size()), next, state);
  }
  kick(state);
}

FERRY_COMPUTE void sample(ferry::ComputeContext &cc,
                          ferry::Buffer<float> *state,
                          ferry::Buffer<float> &out) {
  ferry::Buffer<float> probe(out.size());
  seed(probe);
  cc.dispatch(blur, ferry::Range(out.size()), *state, probe);
  kick(probe);
  cc.dispatch(blur, ferry::Range(out.size()), probe, out);
}

int main() {
  ferry::Buffer<float> state(32), next(32, 0.0f), out(32);
  seed(state);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { smooth(cc, state, next, 2); });
  printBuffer("state", state);
  printBuffer("next", next);
  acc.compute([&](ferry::ComputeContext &cc) { sample(cc, &state, out); });
  printBuffer("out", out);
  acc.compute([&](ferry::ComputeContext &cc) {
    smooth(cc, state, next, 1);
    state[0] = 5.0f;
    smooth(cc, state, next, 1);
  });
  printBuffer("state", state);
  printBuffer("next", next);
}
