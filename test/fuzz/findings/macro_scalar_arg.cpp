// Fuzz finding (reduced by hand from seed 1, program p1): a macro constant in
// a dispatch's scalar argument, which the contract allows, fails the rewrite:
// "a dispatch argument from a macro expansion cannot be rewritten".
#include <ferry/ferry.hpp>

#include <cstdio>

#define NV 5

FERRY_KERNEL void addScaled(ferry::KernelContext kc, int *values, int s) {
  values[kc.x] = (values[kc.x] + s) & 0xFFFF;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                       int n) {
  cc.dispatch(addScaled, ferry::Range(n), values, n * NV);
}

int main() {
  ferry::Buffer<int> values(8, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values, 8); });
  std::printf("%d %d\n", values[0], values[7]);
}
