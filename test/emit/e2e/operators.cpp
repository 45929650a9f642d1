#include "../golden/operators.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b, ferry::Buffer<int> &out,
                       ferry::Buffer<float> &f, ferry::Buffer<float> &fout,
                       int n) {
  cc.dispatch(ops, ferry::Range(n), a, b, out, f, fout);
}

int main() {
  const int n = 500;
  ferry::Buffer<int> a(n), b(n), out(n);
  ferry::Buffer<float> f(n), fout(n);
  check::fill(a, -1000, 1000);
  check::fill(b, -1000, 1000);
  check::fill(f, -100.0f, 100.0f);
  std::vector<int> ra = check::copy(a), rb = check::copy(b), rout(n);
  std::vector<float> rf = check::copy(f), rfout(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, out, f, fout, n); });
  check::host(ops, n, 1, 1, ra.data(), rb.data(), rout.data(), rf.data(),
              rfout.data());
  check::values("out", out, rout);
  check::values("fout", fout, rfout);
  return check::report("operators");
}
