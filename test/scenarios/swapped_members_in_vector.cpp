// Issue 33 (found by a review of this stop's changes): a double buffer in a
// class, swapped after each step (`std::swap(cur_, next_)`), its objects in
// a std::vector stepped from a time loop of computes. The step's exit marks
// `next_` as used only by compute code (`cc.keepOnDevice`: it never comes
// home) and `cur_` as read only through const (`cc.keepDeviceCopy`). The
// runtime kept those marks with the data, so the next swap moved "never
// comes home" into `cur_`, and the lambda's exit (the safety net,
// `fromDeviceAllOf<float>`) skipped the newest results: 1.0 where the
// reference prints 3.0. The marks now stay with the object the rewriter
// named.
//
// By hand (cur_, next_: 4 floats, 16 B): step 1 copies cur_ in as a fill
// (16 B); next_ is written whole by the kernel (no copy in). Each compute's
// exit brings the new cur_ home through the net (3, 48 B); the kept copies
// mean nothing goes in again. In 1 (16 B, a fill), out 3 (48 B, by the
// net), dispatches 3.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 16 fills 1 fill_bytes 16
// ferry-test: from_device 3 from_device_bytes 48
// ferry-test: unnamed_from_device 3 unnamed_from_device_bytes 48
// ferry-test: dispatches 3
#include <ferry/ferry.hpp>

#include <cstdio>
#include <utility>
#include <vector>

FERRY_KERNEL void inc(ferry::KernelContext kc, float *out, const float *in) {
  out[kc.x] = in[kc.x] + 1.0f;
}

class Sim {
public:
  Sim() : cur_(4, 0.f), next_(4, 0.f) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(inc, ferry::Range(4), next_, cur_);
    std::swap(cur_, next_);
  }
  float value() const { return cur_[0]; }

private:
  ferry::Buffer<float> cur_, next_;
};

int main() {
  std::vector<Sim> sims(1);
  ferry::Accelerator acc;
  for (int t = 0; t < 3; ++t)
    acc.compute([&](ferry::ComputeContext &cc) {
      for (auto &s : sims)
        s.step(cc);
    });
  std::printf("%.1f\n", sims[0].value());
}
