#include "../golden/math_float.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out, ferry::Buffer<int> &ints,
                       ferry::Buffer<int> &iout, int n) {
  cc.dispatch(mathf, ferry::Range(n), in, out, ints, iout);
}

int main() {
  const int n = 256;
  ferry::Buffer<float> in(n), out(n * kResults);
  ferry::Buffer<int> ints(n), iout(n);
  check::fill(in, -2.0f, 2.0f);
  check::fill(ints, -20, 20);
  std::vector<float> rin = check::copy(in), rout(n * kResults);
  std::vector<int> rints = check::copy(ints), riout(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out, ints, iout, n); });
  check::host(mathf, n, 1, 1, rin.data(), rout.data(), rints.data(), riout.data());
  check::values("out", out, rout);
  check::values("iout", iout, riout);
  return check::report("math_float");
}
