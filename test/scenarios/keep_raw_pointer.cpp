// A raw pointer main keeps into a buffer, written through between frames:
// the buffer is written without being named, so it is never kept on the
// device, while the buffer main leaves alone is.
//
// By hand (16 ints = 64 B each, 4 frames, one kernel per frame):
//   `weights` is written by the host before the first frame and then only
//   read by the kernel: in once (64 B), and kept on the device by
//   `acc.keepOnDevice(weights)` before every frame; never out (no kernel
//   writes it).
//   `state`: `int *p = state.data();` is kept in main, and `p[f] += 100`
//   writes it between frames. Ferry counts it as written from there on,
//   writes no keep for it, and every frame starts with its device copy
//   stale: in 4 (256 B). The kernel writes it and main reads it: out 4
//   (256 B). (Kept, it would go in once and the device would miss the
//   writes through `p`: the output would differ from the reference's.)
// In 5 (320 B), out 4 (256 B).
// ferry-test: golden
// ferry-test: to_device 5 to_device_bytes 320 from_device 4 from_device_bytes 256
// ferry-test: dispatches 4
#include "Print.h"

FERRY_KERNEL void advance(ferry::KernelContext kc, const int *weights,
                          int *state) {
  state[kc.x] = (state[kc.x] * 3 + weights[kc.x]) % 1009;
}

FERRY_COMPUTE void frameStep(ferry::ComputeContext &cc,
                             ferry::Buffer<int> &weights,
                             ferry::Buffer<int> &state) {
  cc.dispatch(advance, ferry::Range(state.size()), weights, state);
}

int main() {
  ferry::Buffer<int> weights(16), state(16);
  for (int i = 0; i < 16; ++i) {
    weights[i] = i + 1;
    state[i] = 2 * i;
  }
  int *p = state.data();
  ferry::Accelerator acc;
  for (int f = 0; f < 4; ++f) {
    acc.compute([&](ferry::ComputeContext &cc) { frameStep(cc, weights, state); });
    p[f] += 100; // writes `state` without naming it
    std::printf("frame %d: %d %d\n", f, state[0], state[15]);
  }
  printBuffer("state", state);
}
