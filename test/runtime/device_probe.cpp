// A hand-rewritten program: what `ferry rewrite` makes of reference_probe.cpp.
// The statistics tests run it with FERRY_DEVICE, FERRY_STATS and FERRY_TRACE.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

static const char ferry_program[] = R"CLC(
__kernel void twice(__global float *a, float s) {
  int i = get_global_id(0);
  a[i] = a[i] * s;
}
__kernel void head(__global int *out, int v, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = v;
}
)CLC";

void twice(ferry::KernelContext kc, float *a, float s) {
  a[kc.x] = a[kc.x] * s;
}

void head(ferry::KernelContext kc, int *out, int v, int n) {
  if (kc.x < n)
    out[kc.x] = v;
}

// `probe partial`: a write-only output whose kernel covers only its first
// two elements (the rewriter's ferry::wo(out, n)).
void partial(ferry::ComputeContext &cc, ferry::Buffer<int> &out) {
  cc.launch(ferry_program, "head", head, ferry::Range(out.size()),
            ferry::wo(out, 2), 5, 2);
  cc.fromDeviceIfStale(out);
}

void work(ferry::ComputeContext &cc, ferry::Buffer<float> &a) {
  cc.toDeviceIfStale(a);
  cc.launch(ferry_program, "twice", twice, ferry::Range(a.size()),
            ferry::rw(a), 2.0f);
  cc.launch(ferry_program, "twice", twice, ferry::Range(a.size()),
            ferry::rw(a), 2.0f);
  cc.fromDeviceIfStale(a);
}

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    ferry::Buffer<float> a{1, 2, 3};
    ferry::Accelerator acc;
    if (mode == "idle") { // an Accelerator that runs nothing
      std::printf("%s\n", acc.deviceName().c_str());
      return 0;
    }
    if (mode == "partial") {
      ferry::Buffer<int> out{1, 2, 3, 4};
      acc.compute([&](ferry::ComputeContext &cc) { partial(cc, out); });
      std::printf("%s %d %d %d %d\n", acc.deviceName().c_str(), out[0],
                  out[1], out[2], out[3]);
      return out[0] == 5 && out[1] == 5 && out[2] == 3 && out[3] == 4 ? 0 : 1;
    }
    if (mode == "throws") { // an exception leaves compute: a comes home
      try {
        acc.compute([&](ferry::ComputeContext &cc) {
          cc.toDeviceIfStale(a);
          cc.launch(ferry_program, "twice", twice, ferry::Range(a.size()),
                    ferry::rw(a), 2.0f);
          cc.launch(ferry_program, "twice", twice, ferry::Range(a.size()),
                    ferry::rw(a), 2.0f);
          throw std::runtime_error("stop"); // before the copy back
        });
      } catch (const std::runtime_error &) {
        std::printf("caught: %g %g %g\n", a[0], a[1], a[2]);
        return a[2] == 12.0f ? 0 : 1;
      }
      return 1;
    }
    if (mode == "fails") { // run with FERRY_FAIL_KERNEL=twice
      acc.compute([&](ferry::ComputeContext &cc) {
        cc.toDeviceIfStale(a);
        cc.launch(ferry_program, "twice", twice, ferry::Range(a.size()),
                  ferry::rw(a), 2.0f);
        std::printf("enqueued\n"); // the launch itself did not fail
      });
      return 0;
    }
        if (mode == "many") { // several buffers (pinned, or not)
      ferry::Buffer<float> b{4, 5, 6}, c{7, 8, 9};
      acc.compute([&](ferry::ComputeContext &cc) {
        work(cc, b);
        work(cc, c);
      });
      if (b[0] != 16.0f || c[2] != 36.0f)
        return 1;
    }
    acc.compute([&](ferry::ComputeContext &cc) { work(cc, a); });
    std::printf("%s %g %g %g\n", acc.deviceName().c_str(), a[0], a[1], a[2]);
    return a[2] == 12.0f ? 0 : 1;
  } catch (const ferry::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
