// Review finding (issue 16): a global buffer in an unnamed namespace inside a named one, spelled in the rewrite (GlobalBuffers).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

namespace lib {
namespace {
ferry::Buffer<float> g(4, 1.0f);
}
void bumpG() { g[0] += 1.0f; }
} // namespace lib

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &g) {
  cc.dispatch(twice, ferry::Range(4), g);
  lib::bumpG();
}

int main() {
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, lib::g); });
  std::printf("g %g %g\n", lib::g[0], lib::g[1]);
}
