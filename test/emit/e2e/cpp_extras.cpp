#include "../golden/cpp_extras.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<ns::V> &v,
                       ferry::Buffer<float> &out, ferry::Buffer<int> &iout,
                       int n) {
  cc.dispatch(ns::scaleAdd, ferry::Range(n), v, 0);
  cc.dispatch(extras, ferry::Range(n), out, v, iout);
}

int main() {
  const int n = 128;
  ferry::Buffer<ns::V> v(n);
  for (ns::V &x : v)
    x = {check::uniform(-4.0f, 4.0f), check::uniform(-4.0f, 4.0f)};
  ferry::Buffer<float> out(n);
  ferry::Buffer<int> iout(n);
  check::fill(out, -100.0f, 100.0f);
  std::vector<ns::V> rv = check::copy(v);
  std::vector<float> rout = check::copy(out);
  std::vector<int> riout(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v, out, iout, n); });
  check::host(ns::scaleAdd, n, 1, 1, rv.data(), 0);
  check::host(extras, n, 1, 1, rout.data(), rv.data(), riout.data());
  check::member("v.x", v, rv, &ns::V::x);
  check::member("v.y", v, rv, &ns::V::y);
  check::values("out", out, rout);
  check::values("iout", iout, riout);
  return check::report("cpp_extras");
}
