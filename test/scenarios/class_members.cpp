// Issue 23, part 3: a class that owns its buffers and advances them in a
// FERRY_COMPUTE member function. `state_` and `flux_` are members reached
// through `this`, in the compute function itself and in the member helpers
// it calls: `relax` dispatches (planned, called only from planned code, so
// it leaves the buffers where they are), `pin` writes `state_[0]` on the
// host and `total` reads `flux_` (each planned by its own summary, per
// member). The twin with the buffers as parameters is
// class_members_params.cpp, and the two move the same bytes: between the
// computes it keeps main's own buffers on the device, and this one keeps
// the private members, which the class's code outside computes only reads
// (`print() const`): the exits write `cc.keepDeviceCopy(this->state_)`.
//
// By hand (n = 64 floats, 256 B each):
//   advance(3): the loop's kernels read state_ and flux_ and the host never
//     writes them there: both in once, before the loop (2; flux_ still holds
//     what it was made with: a fill). After the loop pin() writes
//     state_[0] and nothing else (its summary bounds it to that element),
//     whole, without reading it: nothing comes back for it; total() reads
//     flux_: back (1). Exit: the other 63 elements of state_ back (1,
//     252 B).
//   advance(1) again, in a second compute: the device copies carried over
//     are valid but for state_[0], which pin() wrote on the host: in 1
//     (4 B); out 2 (flux_ for total, 252 B of state_ at the exit).
//   In 3 (516 B), out 4 (1016 B). Dispatches 2 x 3 + 2 x 1 = 8.
// ferry-test: golden
// Fills: 1 of the copies in above (256 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 3 to_device_bytes 516 from_device 4 from_device_bytes 1016
// ferry-test: fills 1 fill_bytes 256
// ferry-test: dispatches 8
#include "Print.h"

FERRY_KERNEL void diffuse(ferry::KernelContext kc, float *s, const float *f,
                          float k) {
  s[kc.x] = s[kc.x] + k * f[kc.x];
}

FERRY_KERNEL void relaxKernel(ferry::KernelContext kc, const float *s,
                              float *f) {
  f[kc.x] = 0.5f * f[kc.x] + 0.125f * s[kc.x];
}

class Heat {
public:
  explicit Heat(int n) : state_(n), flux_(n, 1.0f) {
    for (int i = 0; i < n; ++i)
      state_[i] = static_cast<float>(i % 7);
  }

  FERRY_COMPUTE void advance(ferry::ComputeContext &cc, int steps) {
    for (int s = 0; s < steps; ++s) {
      cc.dispatch(diffuse, ferry::Range(state_.size()), state_, flux_, 0.25f);
      relax(cc);
    }
    pin();
    std::printf("total flux %.4f\n", total());
  }

  void print() const {
    printBuffer("state", state_);
    printBuffer("flux", flux_);
  }

private:
  void relax(ferry::ComputeContext &cc) {
    cc.dispatch(relaxKernel, ferry::Range(flux_.size()), this->state_, flux_);
  }
  void pin() { state_[0] = 0.0f; }
  float total() const {
    float sum = 0.0f;
    for (float v : flux_)
      sum += v;
    return sum;
  }

  ferry::Buffer<float> state_;
  ferry::Buffer<float> flux_;
};

int main() {
  Heat heat(64);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { heat.advance(cc, 3); });
  heat.print();
  acc.compute([&](ferry::ComputeContext &cc) { heat.advance(cc, 1); });
  heat.print();
}
