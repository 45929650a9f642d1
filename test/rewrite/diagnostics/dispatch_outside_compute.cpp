// Kernels are dispatched only from compute functions (or functions they
// call, which then need the ComputeContext).
#include <ferry/ferry.hpp>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

int main() {
  ferry::Buffer<int> b(4);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(inc, ferry::Range(b.size()), b);
  });
}
// CHECK: 11:5: error: kernels are dispatched only from compute functions
