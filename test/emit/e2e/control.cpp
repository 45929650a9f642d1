#include "../golden/control.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<int> &steps, ferry::Buffer<int> &kinds,
                       int n) {
  cc.dispatch(collatz, ferry::Range(n), in, steps, kinds);
}

int main() {
  const int n = 777;
  ferry::Buffer<int> in(n), steps(n), kinds(n);
  check::fill(in, -20, 5000);
  std::vector<int> rin = check::copy(in), rsteps(n), rkinds(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, steps, kinds, n); });
  check::host(collatz, n, 1, 1, rin.data(), rsteps.data(), rkinds.data());
  check::values("steps", steps, rsteps);
  check::values("kinds", kinds, rkinds);
  return check::report("control");
}
