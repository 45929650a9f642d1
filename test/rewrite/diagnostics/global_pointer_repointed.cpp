// A global buffer pointer names one buffer through a whole compute: compute
// code may read it (PolyBench's global cl_mem objects), not re-point it.
#include <ferry/ferry.hpp>

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

ferry::Buffer<int> *current = nullptr;

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b) {
  current = &a;
  cc.dispatch(inc, ferry::Range(a.size()), *current);
  current = &b;
  cc.dispatch(inc, ferry::Range(b.size()), *current);
}

int main() {
  ferry::Buffer<int> a(4), b(4);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b); });
}
// CHECK: 11:3: error: compute code may read the global buffer pointer 'current' but not re-point it
// CHECK: 13:3: error: compute code may read the global buffer pointer 'current' but not re-point it
