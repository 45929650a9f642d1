#include "../golden/kernel_templates.cpp"
#include "Check.h"

// The instantiations the dispatches name.
FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &xf,
                       ferry::Buffer<float> &yf, ferry::Buffer<double> &xd,
                       ferry::Buffer<double> &yd, ferry::Buffer<int> &xi,
                       ferry::Buffer<int> &yi, ferry::Buffer<float> &sums) {
  cc.dispatch(axpy<float>, ferry::Range(xf.size()), 2.0f, xf, yf);
  cc.dispatch(axpy<double>, ferry::Range(xd.size()), 0.5, xd, yd);
  cc.dispatch(axpy<int>, ferry::Range(xi.size()), 3, xi, yi);
  cc.dispatch(tileSums<16>, ferry::Range(xf.size()).local(16), xf, sums);
  cc.dispatch(tileSums<32>, ferry::Range(xf.size()).local(32), xf, sums);
}

int main() {
  const int n = 128;
  ferry::Buffer<float> xf(n), yf(n), sums(n / 16);
  ferry::Buffer<double> xd(n), yd(n);
  ferry::Buffer<int> xi(n), yi(n);
  check::fill(xf, -1.0f, 1.0f);
  check::fill(yf, -1.0f, 1.0f);
  check::fill(xd, -1.0, 1.0);
  check::fill(yd, -1.0, 1.0);
  check::fill(xi, -100, 100);
  check::fill(yi, -100, 100);
  std::vector<float> rxf = check::copy(xf), ryf = check::copy(yf),
                     rsums(n / 16);
  std::vector<double> rxd = check::copy(xd), ryd = check::copy(yd);
  std::vector<int> rxi = check::copy(xi), ryi = check::copy(yi);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, xf, yf, xd, yd, xi, yi, sums);
  });
  check::host(axpy<float>, n, 1, 1, 2.0f, rxf.data(), ryf.data());
  check::host(axpy<double>, n, 1, 1, 0.5, rxd.data(), ryd.data());
  check::host(axpy<int>, n, 1, 1, 3, rxi.data(), ryi.data());
  // tileSums<32> ran last and wrote the first n / 32 sums; the rest are
  // tileSums<16>'s.
  float *px = rxf.data(), *ps = rsums.data();
  ferry::detail::runOnHost(tileSums<16>, ferry::Range(n).local(16),
                           "tileSums<16>", px, ps);
  ferry::detail::runOnHost(tileSums<32>, ferry::Range(n).local(32),
                           "tileSums<32>", px, ps);
  check::values("axpy<float>", yf, ryf);
  check::values("axpy<double>", yd, ryd);
  check::values("axpy<int>", yi, ryi);
  check::values("tileSums", sums, rsums);
  return check::report("kernel_templates");
}
