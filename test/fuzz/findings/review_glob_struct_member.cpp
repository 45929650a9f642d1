// Review finding (issue 16): a global struct's buffer member touched by a helper (GlobalBuffers).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

struct Model {
  ferry::Buffer<float> w{1.0f, 1.0f, 1.0f, 1.0f};
};
Model model;

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

static void bump() { model.w[0] += 100.0f; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &w) {
  cc.dispatch(twice, ferry::Range(4), w);
  bump();
}

int main() {
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, model.w); });
  std::printf("w %g %g\n", model.w[0], model.w[1]);
}
