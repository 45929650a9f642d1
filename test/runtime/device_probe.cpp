// A hand-rewritten program: what `ferry rewrite` makes of reference_probe.cpp.
// The statistics tests run it with FERRY_DEVICE, FERRY_STATS and FERRY_TRACE.
#include <ferry/ferry.hpp>

#include <cstdio>

static const char ferry_program[] = R"CLC(
__kernel void twice(__global float *a, float s) {
  int i = get_global_id(0);
  a[i] = a[i] * s;
}
)CLC";

void twice(ferry::KernelContext kc, float *a, float s) {
  a[kc.x] = a[kc.x] * s;
}

void work(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.toDeviceIfStale(a);
  cc.launch(ferry_program, "twice", twice, ferry::Range(a.size()),
            ferry::rw(a), 2.0f);
  cc.launch(ferry_program, "twice", twice, ferry::Range(a.size()),
            ferry::rw(a), 2.0f);
  cc.fromDeviceIfStale(a);
}

int main() {
  try {
    ferry::Buffer<float> a{1, 2, 3};
    ferry::Accelerator acc;
    acc.compute([&](ferry::ComputeContext &cc) { work(cc, a); });
    std::printf("%s %g %g %g\n", acc.deviceName().c_str(), a[0], a[1], a[2]);
    return a[2] == 12.0f ? 0 : 1;
  } catch (const ferry::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
