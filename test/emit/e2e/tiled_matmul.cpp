#include "../golden/tiled_matmul.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                       ferry::Buffer<float> &b, ferry::Buffer<float> &c,
                       int n) {
  cc.dispatch(tiledMatmul, ferry::Range(n / kPer, n / kPer).local(8, 8), a, b,
              c, n);
}

int main() {
  const int n = 64;
  ferry::Buffer<float> a(n * n), b(n * n), c(n * n);
  check::fill(a, -1.0f, 1.0f);
  check::fill(b, -1.0f, 1.0f);
  std::vector<float> ra = check::copy(a), rb = check::copy(b), rc(n * n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, c, n); });
  float *pa = ra.data(), *pb = rb.data(), *pc = rc.data();
  int size = n;
  ferry::detail::runOnHost(tiledMatmul,
                           ferry::Range(n / kPer, n / kPer).local(8, 8),
                           "tiledMatmul", pa, pb, pc, size);
  // And against the plain triple loop, to a tolerance for the order of sums.
  std::vector<float> plain(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k)
        s += double(ra[i * n + k]) * rb[k * n + j];
      plain[i * n + j] = float(s);
    }
  check::values("tiledMatmul", c, rc);
  int off = 0;
  for (int i = 0; i < n * n; ++i)
    off += std::fabs(rc[i] - plain[i]) > 1e-4f;
  ferry::Buffer<int> offBy(1);
  offBy[0] = off;
  check::values("reference against the triple loop", offBy, std::vector<int>{0});
  return check::report("tiled_matmul");
}
