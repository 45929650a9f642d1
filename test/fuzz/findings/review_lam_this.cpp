// Review finding (issue 16): a planned lambda reaching a buffer through this.
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

class Sim {
public:
  ferry::Buffer<float> a{1.0f, 2.0f, 3.0f, 4.0f};
  void run(ferry::Accelerator &acc) {
    acc.compute([&](ferry::ComputeContext &cc) {
      dbl(cc, a);
      dbl(cc, a);
    });
  }
};

int main() {
  Sim s;
  ferry::Accelerator acc;
  s.run(acc);
  std::printf("a %g %g\n", s.a[0], s.a[3]);
}
