// Review finding (issue 16): std::iota storing element pointers as values (ExitLiveness).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>
#include <numeric>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

int main() {
  ferry::Buffer<float> tmp{1.0f, 2.0f, 3.0f, 4.0f};
  float *cells[4];
  std::iota(cells, cells + 4, tmp.data());
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { dbl(cc, tmp); });
  std::printf("cell %g\n", *cells[2]);
}
