// A host write between two computes: the buffer it writes is not kept for
// the compute after it, and is again once the host leaves it alone.
//
// By hand (16 ints = 64 B each, four computes of one kernel each):
//   compute 1: `weights` and `state` were written by the host (made and
//              filled in a loop): in 2 (128 B).
//   compute 2: main only read `state[0]` since: Ferry keeps both on the
//              device (`acc.keepOnDevice`), nothing goes in.
//   compute 3: `state[0] = 7;` wrote `state`: no keep for it, its device
//              copy starts stale and goes in, in 1 (64 B); `weights` is
//              kept.
//   compute 4: only reads since: both kept, nothing in.
//   Every compute's kernel writes `state` and main reads it after: out 1
//   each (64 B); `weights` is never written on the device: never out.
// In 3 (192 B), out 4 (256 B); before the keep, in 8 (512 B).
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 192 from_device 4 from_device_bytes 256
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
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { frameStep(cc, weights, state); });
  std::printf("after 1: %d\n", state[0]);
  acc.compute([&](ferry::ComputeContext &cc) { frameStep(cc, weights, state); });
  state[0] = 7;
  acc.compute([&](ferry::ComputeContext &cc) { frameStep(cc, weights, state); });
  std::printf("after 3: %d %d\n", state[0], state[15]);
  acc.compute([&](ferry::ComputeContext &cc) { frameStep(cc, weights, state); });
  printBuffer("state", state);
  printBuffer("weights", weights);
}
