// Review finding (issue 16): a running index of a type too narrow for the count: partial (HostAccess).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void fill(ferry::KernelContext kc, float *w) { w[kc.x] = 10.0f + kc.x; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &w, int K, int J) {
  cc.dispatch(fill, ferry::Range(w.size()), w);
  unsigned char m = 0;
  for (int k = 0; k < K; k++)
    for (int j = 0; j < J; j++) {
      w[m] = -1.0f;
      m++;
    }
}

int main() {
  ferry::Buffer<float> w(300);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, w, 20, 15); });
  std::printf("%g %g %g\n", w[0], w[255], w[299]);
}
