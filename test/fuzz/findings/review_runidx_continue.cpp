// Review finding (issue 16): a running index over nested loops whose inner loop may continue: partial (HostAccess).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void fill(ferry::KernelContext kc, float *w) { w[kc.x] = 10.0f + kc.x; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &w, int K, int J) {
  cc.dispatch(fill, ferry::Range(w.size()), w);
  int m = 0;
  for (int k = 0; k <= K; k++)
    for (int j = 0; j <= J; j++) {
      if (j == 1)
        continue;
      w[m] = -1.0f;
      m++;
    }
}

int main() {
  ferry::Buffer<float> w(6);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, w, 1, 2); });
  for (int i = 0; i < 6; ++i)
    std::printf("%g ", w[i]);
  std::printf("\n");
}
