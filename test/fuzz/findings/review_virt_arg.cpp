// Review finding (issue 16): a buffer passed to a virtual call summarised by the base's body (HostAccess).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

struct Hook {
  virtual ~Hook() = default;
  virtual void run(ferry::Buffer<float> &) {}
};
struct Bump : Hook {
  void run(ferry::Buffer<float> &v) override { v[0] += 100.0f; }
};

FERRY_COMPUTE void f(ferry::ComputeContext &cc, ferry::Buffer<float> &v, Hook &h) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
  h.run(v);
}

int main() {
  ferry::Buffer<float> v{1.0f, 1.0f, 1.0f, 1.0f};
  Bump b;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { f(cc, v, b); });
  std::printf("v %g %g\n", v[0], v[1]);
}
