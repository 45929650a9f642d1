#include "../golden/math_double.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<double> &in,
                       ferry::Buffer<double> &out, ferry::Buffer<float> &f,
                       ferry::Buffer<float> &fout, int n) {
  cc.dispatch(mathd, ferry::Range(n), in, out, f, fout);
}

int main() {
  const int n = 256;
  ferry::Buffer<double> in(n), out(n);
  ferry::Buffer<float> f(n), fout(n);
  check::fill(in, -3.0, 3.0);
  check::fill(f, -3.0f, 3.0f);
  std::vector<double> rin = check::copy(in), rout(n);
  std::vector<float> rf = check::copy(f), rfout(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out, f, fout, n); });
  check::host(mathd, n, 1, 1, rin.data(), rout.data(), rf.data(), rfout.data());
  check::values("out", out, rout);
  check::values("fout", fout, rfout);
  return check::report("math_double");
}
