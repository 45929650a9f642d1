#include <ferry/ferry.hpp>
#include <scale.h>

#include <cstdio>

FERRY_KERNEL void triple(ferry::KernelContext kc, int *v) { v[kc.x] = scaled(v[kc.x]); }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &v) {
  cc.dispatch(triple, ferry::Range(v.size()), v);
}

int main() {
  ferry::Buffer<int> v{1, 2, 3};
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v); });
  std::printf("%d %d %d (C++%ld)\n", v[0], v[1], v[2], __cplusplus / 100 % 100);
}
