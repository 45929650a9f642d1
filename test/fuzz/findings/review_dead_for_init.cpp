// Review finding (issue 16): a buffer declared in a for-init lives through every round: its exit copy is not dead (ExitLiveness).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void step(ferry::KernelContext kc, float *state, float *total) {
  state[kc.x] += 1.0f;
  total[kc.x] = state[kc.x];
}

FERRY_COMPUTE void accumulate(ferry::ComputeContext &cc, ferry::Buffer<float> &state,
                              ferry::Buffer<float> &total) {
  cc.dispatch(step, ferry::Range(state.size()), state, total);
}

int main() {
  const int n = 4;
  ferry::Buffer<float> total(n);
  ferry::Accelerator acc;
  int round = 0;
  for (ferry::Buffer<float> state(n); round < 3; ++round)
    acc.compute([&](ferry::ComputeContext &cc) { accumulate(cc, state, total); });
  std::printf("total %g\n", total[1]);
}
