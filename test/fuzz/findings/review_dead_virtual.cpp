// Review finding (issue 16): a virtual call whose override stores the buffer's address (ExitLiveness).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

struct Sink {
  virtual ~Sink() = default;
  virtual void take(ferry::Buffer<float> &) {}
};
struct Keeper : Sink {
  ferry::Buffer<float> *kept = nullptr;
  void take(ferry::Buffer<float> &b) override { kept = &b; }
};

int main() {
  Keeper keeper;
  Sink &sink = keeper;
  ferry::Buffer<float> tmp{1.0f, 2.0f, 3.0f, 4.0f};
  sink.take(tmp);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { dbl(cc, tmp); });
  std::printf("kept %g\n", (*keeper.kept)[1]);
}
