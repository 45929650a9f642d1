// A reference program: built from ferry.hpp alone, with no library and no
// OpenCL. The statistics tests run it with FERRY_STATS.
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL void twice(ferry::KernelContext kc, FERRY_RW float *a,
                        float s) {
  a[kc.x] = a[kc.x] * s;
}

FERRY_COMPUTE void work(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.dispatch(twice, ferry::Range(a.size()), a, 2.0f);
  cc.dispatch(twice, ferry::Range(a.size()), a, 2.0f);
}

int main() {
  ferry::Buffer<float> a{1, 2, 3};
  ferry::Accelerator acc;
  acc.keepOnDevice(a); // links without the library, and does nothing
  acc.compute([&](ferry::ComputeContext &cc) { work(cc, a); });
  std::printf("%s %g %g %g\n", acc.deviceName().c_str(), a[0], a[1], a[2]);
  return a[2] == 12.0f ? 0 : 1;
}
