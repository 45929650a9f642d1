// assert() in a kernel under a build type that defines NDEBUG (Release's
// CMAKE_CXX_FLAGS_RELEASE): ferry_target_sources passes the build type's
// definitions to the rewrite, so the emitted kernel drops the assertion as
// the host build does, and the rewritten program prints what the reference
// prints. Two inputs are negative: a kernel that still checked the assertion
// would print glibc's "Assertion ... failed." line on standard output for
// each (the device cannot stop), and the outputs would differ.
//
// By hand (8 ints = 32 B each way): `in` is copied in; `out` is written whole
// by the kernel, so it is not; `out` is copied back for the print.
// ferry-test: to_device 1 to_device_bytes 32 from_device 1 from_device_bytes 32
// ferry-test: dispatches 1
#include <ferry/ferry.hpp>

#include <cassert>
#include <cstdio>

FERRY_KERNEL void doubled(ferry::KernelContext kc, const int *in, int *out) {
  assert(in[kc.x] >= 0 && "inputs are counts");
  out[kc.x] = in[kc.x] * 2;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<int> &out) {
  cc.dispatch(doubled, ferry::Range(in.size()), in, out);
}

int main() {
  ferry::Buffer<int> in(8), out(8);
  for (int i = 0; i < 8; ++i)
    in[i] = i % 3 == 2 ? -i : i; // items 2 and 5 fail the assertion
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out); });
  for (int i = 0; i < 8; ++i)
    std::printf("out[%d] = %d\n", i, out[i]);
}
