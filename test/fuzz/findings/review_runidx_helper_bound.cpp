// Review finding (issue 16): an inner bound a helper changes inside the loop: partial (HostAccess).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

int J = 3;
static void shrink(int j) {
  if (j == J - 1)
    --J;
}

FERRY_KERNEL void fill(ferry::KernelContext kc, float *w) { w[kc.x] = 10.0f + kc.x; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &w) {
  cc.dispatch(fill, ferry::Range(w.size()), w);
  int m = 0;
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < J; j++) {
      w[m] = -1.0f;
      m++;
      shrink(j);
    }
}

int main() {
  ferry::Buffer<float> w(9);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, w); });
  for (int i = 0; i < 9; ++i)
    std::printf("%g ", w[i]);
  std::printf("\n");
}
