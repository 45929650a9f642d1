// Review finding (issue 16): a global reference to a buffer (GlobalBuffers).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

ferry::Buffer<float> x{1.0f, 1.0f, 1.0f, 1.0f};
ferry::Buffer<float> &gr = x;

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

static void show() { std::printf("seen %g\n", gr[0]); }
static void bump() { gr[1] += 10.0f; }

FERRY_COMPUTE void f(ferry::ComputeContext &cc) {
  cc.dispatch(twice, ferry::Range(x.size()), x);
  show();
  bump();
  cc.dispatch(twice, ferry::Range(x.size()), x);
}

int main() {
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { f(cc); });
  std::printf("x %g %g\n", x[0], x[1]);
}
