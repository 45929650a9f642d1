#include "../golden/helpers.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<int> &out, ferry::Buffer<float> &f,
                       ferry::Buffer<float> &fout, int n) {
  cc.dispatch(helpers, ferry::Range(n), in, out, f, fout);
}

int main() {
  const int n = 300;
  ferry::Buffer<int> in(n), out(n);
  ferry::Buffer<float> f(n), fout(n);
  check::fill(in, -500, 500);
  check::fill(f, -2.0f, 2.0f);
  std::vector<int> rin = check::copy(in), rout(n);
  std::vector<float> rf = check::copy(f), rfout(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out, f, fout, n); });
  check::host(helpers, n, 1, 1, rin.data(), rout.data(), rf.data(), rfout.data());
  check::values("out", out, rout);
  check::values("fout", fout, rfout);
  return check::report("helpers");
}
