// The program in docs/getting-started.md: a kernel and a compute function,
// built by a project that finds an installed Ferry.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void saxpy(ferry::KernelContext kc, float *y, const float *x, float a) {
  if (kc.x < kc.maxX)
    y[kc.x] = a * x[kc.x] + y[kc.x];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &y,
                       const ferry::Buffer<float> &x, int steps) {
  for (int s = 0; s < steps; ++s)
    cc.dispatch(saxpy, ferry::Range(y.size()), y, x, 0.5f);
}

int main() {
  ferry::Buffer<float> y(1024, 1.0f), x(1024, 2.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, y, x, 10); });
  std::printf("%g\n", y[0]);
}
