// A compute entry called once per frame from `main`, which reads the state
// and changes a parameter between frames.
//
// By hand (32 ints = 128 B, 4 frames, two kernels per frame): each frame is a
// new compute. Between frames main only reads `state` (two elements), so
// before every compute Ferry writes `acc.keepOnDevice(state)`: the device
// copy each frame leaves, valid since the exit copied it home, stays valid
// in the next. `state` goes in once, in frame 0 (where keeping it keeps
// nothing: it has no device copy yet), and never again: the entry's copy in
// is `toDeviceIfStale`, which the runtime skips. Within a frame it stays on
// the device between the two kernels.
// At the exit of each frame `state` is stale on the host and main reads
// it: out (1 per frame). `scratch` is local to the compute function and
// fully written before it is read: no copy either way. In 1 (128 B), out 4
// (512 B); before the keep, every frame copied it in: in 4 (512 B).
// ferry-test: golden
// Fills: that one copy in (128 B) is of a buffer still holding what it was
// made with (`Buffer<T> b(n)` or `b(n, v)`, not handed out since): the
// device fills it, so no byte crosses the bus; to_device counts it like any
// copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 128 from_device 4 from_device_bytes 512
// ferry-test: fills 1 fill_bytes 128
// ferry-test: dispatches 8
#include "Print.h"

FERRY_KERNEL void shade(ferry::KernelContext kc, const int *state, int *scratch,
                        int frame) {
  scratch[kc.x] = state[kc.x] + frame * kc.x;
}

FERRY_KERNEL void settle(ferry::KernelContext kc, int *state,
                         const int *scratch) {
  state[kc.x] = (state[kc.x] + scratch[kc.x]) % 251;
}

FERRY_COMPUTE void frameStep(ferry::ComputeContext &cc,
                             ferry::Buffer<int> &state, int frame) {
  ferry::Buffer<int> scratch(state.size());
  cc.dispatch(shade, ferry::Range(state.size()), state, scratch, frame);
  cc.dispatch(settle, ferry::Range(state.size()), state, scratch);
}

int main() {
  ferry::Buffer<int> state(32, 1);
  ferry::Accelerator acc;
  for (int frame = 0; frame < 4; ++frame) {
    acc.compute([&](ferry::ComputeContext &cc) { frameStep(cc, state, frame); });
    std::printf("frame %d: %d %d\n", frame, state[0], state[31]);
  }
  printBuffer("state", state);
}
