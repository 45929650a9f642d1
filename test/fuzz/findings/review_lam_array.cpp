// Review finding (issue 16): a planned lambda reaching a buffer through an array.
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

int main() {
  ferry::Buffer<float> arr[2] = {ferry::Buffer<float>{1.0f, 2.0f}, ferry::Buffer<float>{3.0f, 4.0f}};
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int i = 0; i < 2; ++i)
      dbl(cc, arr[i]);
  });
  std::printf("arr %g %g\n", arr[0][0], arr[1][1]);
}
