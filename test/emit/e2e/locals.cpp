#include "../golden/locals.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<int> &counts, ferry::Buffer<float> &stats,
                       int m, int n) {
  cc.dispatch(histogram, ferry::Range(m), in, counts, stats, n);
}

int main() {
  const int m = 64, n = 37;
  ferry::Buffer<int> in(m * n), counts(m * 4);
  ferry::Buffer<float> stats(m);
  check::fill(in, -1000, 1000);
  std::vector<int> rin = check::copy(in), rcounts(m * 4);
  std::vector<float> rstats(m);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, counts, stats, m, n); });
  check::host(histogram, m, 1, 1, rin.data(), rcounts.data(), rstats.data(), n);
  check::values("counts", counts, rcounts);
  check::values("stats", stats, rstats);
  return check::report("locals");
}
