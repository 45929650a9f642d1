// Review finding (issue 16): the host storage written through a const_cast of a const accessor: no device fill after that (runtime).
// The rewritten program must print what the reference prints.
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void copy(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x] + 1.0f;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, const ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out) {
  cc.dispatch(copy, ferry::Range(in.size()), in, out);
}

int main() {
  ferry::Buffer<float> in(4), out(4);
  const ferry::Buffer<float> &view = in;
  float *p = const_cast<float *>(view.data());
  p[0] = 7.0f;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out); });
  std::printf("out %g %g\n", out[0], out[1]);
}
