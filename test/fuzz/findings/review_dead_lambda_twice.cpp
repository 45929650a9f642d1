// Review finding (issue 16): a compute inside a lambda that runs twice: the buffer is read by the second run (ExitLiveness).
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
  ferry::Buffer<float> state(n), total(n);
  ferry::Accelerator acc;
  auto run = [&] {
    acc.compute([&](ferry::ComputeContext &cc) { accumulate(cc, state, total); });
  };
  run();
  run();
  std::printf("total %g\n", total[1]);
}
