// A static buffer outlives its compute: Ferry brings it home at the
// function's end, so its name must reach there.
#include <ferry/ferry.hpp>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    static ferry::Buffer<int> counts(4);
    cc.dispatch(inc, ferry::Range(counts.size()), counts);
  }
}

int main() {
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, 2); });
}
// CHECK: 9:31: error: a static buffer of a compute function must be declared in the function's outermost block
