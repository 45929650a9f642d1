// Review finding (issue 16): a global buffer pointer re-pointed through its
// address, where Ferry does not look: rejected where the address is taken.
#include <ferry/ferry.hpp>
#include <cstdio>

ferry::Buffer<float> A(4, 1.0f), B(4, 5.0f);
ferry::Buffer<float> *gp = &A;
ferry::Buffer<float> **gpp = &gp;

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

static void flip() { *gpp = &B; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc) {
  cc.dispatch(twice, ferry::Range(4), *gp);
  flip();
  cc.dispatch(twice, ferry::Range(4), *gp);
}

int main() {
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc); });
  std::printf("A %g B %g\n", A[0], B[0]);
}
// CHECK: 8:31: error: Ferry follows the global buffer pointer 'gp' by its name only
