// Review finding (issue 16): a local int with a global buffer's name: the rewrite spells the global qualified (GlobalBuffers).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

ferry::Buffer<float> data(4, 1.0f);

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

static void bump() { data[0] += 1.0f; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &x) {
  int data = 0;
  cc.dispatch(twice, ferry::Range(4), x);
  bump();
  std::printf("local %d\n", data);
}

int main() {
  ferry::Buffer<float> y(4, 3.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, ::data); });
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, y); });
  std::printf("data %g %g y %g\n", ::data[0], ::data[1], y[0]);
}
