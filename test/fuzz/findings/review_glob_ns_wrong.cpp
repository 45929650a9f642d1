// Review finding (issue 16): the same, with another global of the same name at file scope (GlobalBuffers).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

namespace ns {
ferry::Buffer<float> data{1.0f, 1.0f, 1.0f, 1.0f};
void bump() { data[0] += 100.0f; }
} // namespace ns
ferry::Buffer<float> data{5.0f, 5.0f, 5.0f, 5.0f};

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void f(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
  ns::bump();
}

int main() {
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { f(cc, ns::data); });
  std::printf("data %g %g\n", ns::data[0], ns::data[1]);
}
