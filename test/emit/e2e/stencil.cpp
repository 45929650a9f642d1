#include "../golden/stencil.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out, int w, int h) {
  cc.dispatch(jacobi, ferry::Range(w, h), in, out);
}

int main() {
  const int w = 33, h = 21;
  ferry::Buffer<float> in(w * h), out(w * h);
  check::fill(in, -10.0f, 10.0f);
  std::vector<float> rin = check::copy(in), rout(w * h);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out, w, h); });
  check::host(jacobi, w, h, 1, rin.data(), rout.data());
  check::values("out", out, rout);
  return check::report("stencil");
}
