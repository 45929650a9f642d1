// Review finding (issue 16): a planned lambda reaching a buffer through a struct member.
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

struct State {
  ferry::Buffer<float> a{1.0f, 2.0f, 3.0f, 4.0f};
};

int main() {
  State s;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int i = 0; i < 2; ++i)
      dbl(cc, s.a);
  });
  std::printf("a %g %g\n", s.a[0], s.a[3]);
}
