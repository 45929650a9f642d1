// Nested loops: the inner loop of dispatches keeps both buffers on the
// device; the host looks at `state` once per outer iteration.
//
// By hand (32 ints = 128 B; 3 outer x 4 inner): `state` in once and
// `coefficients` (read-only) in once, both before the outer loop; `state`
// out once per outer iteration (3); exit: the last read left it valid.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 256 from_device 3 from_device_bytes 384
// ferry-test: dispatches 12
#include "Print.h"

FERRY_KERNEL void relax(ferry::KernelContext kc, int *state,
                        const int *coefficients) {
  if (kc.x < kc.maxX)
    state[kc.x] = (state[kc.x] + coefficients[kc.x]) % 1009;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &state,
                       ferry::Buffer<int> &coefficients) {
  for (int outer = 0; outer < 3; ++outer) {
    for (int inner = 0; inner < 4; ++inner)
      cc.dispatch(relax, ferry::Range(state.size()), state, coefficients);
    std::printf("outer %d: %d %d\n", outer, state[0], state[31]);
  }
}

int main() {
  ferry::Buffer<int> state(32), coefficients(32);
  for (int i = 0; i < 32; ++i) {
    state[i] = i;
    coefficients[i] = 3 * i + 1;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, state, coefficients); });
  printBuffer("state", state);
}
