// Review finding (issue 16): the buffer's address kept by std::atomic::store, a library call that keeps its argument (ExitLiveness).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <atomic>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

std::atomic<ferry::Buffer<float> *> latest{nullptr};

int main() {
  ferry::Buffer<float> tmp{1.0f, 2.0f, 3.0f, 4.0f};
  latest.store(&tmp);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { dbl(cc, tmp); });
  std::printf("latest %g\n", (*latest.load())[1]);
}
