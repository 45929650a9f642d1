// Review finding (issue 16): a virtual call whose override touches a global buffer (GlobalBuffers).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

ferry::Buffer<float> g{1.0f, 1.0f, 1.0f, 1.0f};

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

struct Hook {
  virtual ~Hook() = default;
  virtual void run() {}
};
struct Bump : Hook {
  void run() override { g[0] += 100.0f; }
};

FERRY_COMPUTE void f(ferry::ComputeContext &cc, Hook &h) {
  cc.dispatch(twice, ferry::Range(g.size()), g);
  h.run();
}

int main() {
  Bump b;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { f(cc, b); });
  std::printf("g %g %g\n", g[0], g[1]);
}
