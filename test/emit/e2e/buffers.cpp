#include "../golden/buffers.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<Pair> &in,
                       ferry::Buffer<float> &values, ferry::Buffer<int> &keys,
                       ferry::Buffer<std::uint8_t> &src,
                       ferry::Buffer<std::uint8_t> &dst, int n, Pair bias) {
  cc.dispatch(scatter, ferry::Range(n), in, values, keys, bias, true,
              static_cast<unsigned char>(200), std::int64_t(-123456789012));
  cc.dispatch(copyBytes, ferry::Range(n + 5), src, dst, unsigned(n));
}

int main() {
  const int n = 300;
  ferry::Buffer<Pair> in(n);
  for (Pair &p : in)
    p = {check::uniform(-1000, 1000), check::uniform(-10.0f, 10.0f)};
  ferry::Buffer<float> values(n);
  ferry::Buffer<int> keys(n);
  check::fill(keys, -50, 50);
  ferry::Buffer<std::uint8_t> src(n + 5), dst(n + 5);
  check::fill(src, 0, 255);
  Pair bias{7, 0.25f};
  std::vector<Pair> rin = check::copy(in);
  std::vector<float> rvalues(n);
  std::vector<int> rkeys = check::copy(keys);
  std::vector<std::uint8_t> rsrc = check::copy(src), rdst(n + 5);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, in, values, keys, src, dst, n, bias);
  });
  check::host(scatter, n, 1, 1, rin.data(), rvalues.data(), rkeys.data(), bias,
              true, static_cast<unsigned char>(200),
              std::int64_t(-123456789012));
  check::host(copyBytes, n + 5, 1, 1, rsrc.data(), rdst.data(), unsigned(n));
  check::values("values", values, rvalues);
  check::values("keys", keys, rkeys);
  check::values("dst", dst, rdst);
  return check::report("buffers");
}
