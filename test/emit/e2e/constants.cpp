#include "../golden/constants.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<float> &out, ferry::Buffer<int> &tags,
                       ferry::Buffer<int> &tags2, int n) {
  cc.dispatch(weigh, ferry::Range(n), in, out, tags, Mode::Add);
  cc.dispatch(weigh, ferry::Range(n), in, out, tags2, Mode::Mul);
}

int main() {
  const int n = 250;
  ferry::Buffer<int> in(n * kWidth), tags(n), tags2(n);
  ferry::Buffer<float> out(n);
  check::fill(in, -40, 40);
  std::vector<int> rin = check::copy(in), rtags(n), rtags2(n);
  std::vector<float> rout(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out, tags, tags2, n); });
  check::host(weigh, n, 1, 1, rin.data(), rout.data(), rtags.data(), Mode::Add);
  check::host(weigh, n, 1, 1, rin.data(), rout.data(), rtags2.data(), Mode::Mul);
  check::values("out", out, rout);
  check::values("tags", tags, rtags);
  check::values("tags2", tags2, rtags2);
  return check::report("constants");
}
