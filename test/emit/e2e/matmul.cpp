#include "../golden/matmul.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                       ferry::Buffer<float> &b, ferry::Buffer<float> &c,
                       int n) {
  cc.dispatch(matmul, ferry::Range(n, n), a, b, c, n);
}

int main() {
  const int n = 19;
  ferry::Buffer<float> a(n * n), b(n * n), c(n * n);
  check::fill(a, -1.0f, 1.0f);
  check::fill(b, -1.0f, 1.0f);
  std::vector<float> ra = check::copy(a), rb = check::copy(b), rc(n * n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, c, n); });
  check::host(matmul, n, n, 1, ra.data(), rb.data(), rc.data(), n);
  check::values("c", c, rc);
  return check::report("matmul");
}
