// The time loop as a member function of the class that owns the buffers,
// the computes handing its private members to free compute functions:
// issue 33's "members kept between computes" for a class whose driver is a
// method. The caller may have written the object since its last compute,
// so before this change nothing of `run` was kept. Now its buffers are
// followed from `this` by their paths, as an object parameter's are: `run`
// begins with `ferry::forgetDeviceCopies(this->t_, this->src_);`, and its
// computes keep and carry them (`this->src_` through `smooth`, whose lambda
// names `t_` alone). `reheat()`, a host member called between the runs,
// writes `src_`.
//
// By hand (floats, 64 = 256 B each):
//   run(acc, 3): trip 1, `inject` copies in `t_` (a fill: it starts
//     uniform) and `src_` (2, 512 B); `smooth` keeps `t_` and carries
//     `src_`; trips 2 and 3 keep both. Out: nothing in the loop but
//     kernels uses `t_`, so it comes home once, when the loop ends (1,
//     256 B); `src_` is only read on the device.
//   reheat(); run(acc, 2): forgotten again; trip 1 copies both in (2,
//     512 B), then nothing; out 1 (256 B).
// In 4 (1024 B), 1 of them a fill (256 B); out 2 (512 B); dispatches 10.
// Before this change: 3 copies in a trip, 15 (3840 B); before loops left
// buffers on the device, 10 came home (2560 B).
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 1024 fills 1 fill_bytes 256
// ferry-test: from_device 2 from_device_bytes 512
// ferry-test: dispatches 10
#include "Print.h"

FERRY_KERNEL void heatUp(ferry::KernelContext kc, float *t, const float *src) {
  t[kc.x] = t[kc.x] + 0.5f * src[kc.x];
}

FERRY_KERNEL void coolDown(ferry::KernelContext kc, float *t) {
  t[kc.x] = t[kc.x] * 0.75f;
}

FERRY_COMPUTE void inject(ferry::ComputeContext &cc, ferry::Buffer<float> &t,
                          const ferry::Buffer<float> &src) {
  cc.dispatch(heatUp, ferry::Range(t.size()), t, src);
}

FERRY_COMPUTE void smooth(ferry::ComputeContext &cc, ferry::Buffer<float> &t) {
  cc.dispatch(coolDown, ferry::Range(t.size()), t);
}

class Heat {
public:
  explicit Heat(int n) : t_(n, 0.0f), src_(n, 0.0f) {
    src_[n / 2] = 64.0f;
  }
  void run(ferry::Accelerator &acc, int steps) {
    for (int s = 0; s < steps; ++s) {
      acc.compute([&](ferry::ComputeContext &cc) { inject(cc, t_, src_); });
      acc.compute([&](ferry::ComputeContext &cc) { smooth(cc, t_); });
    }
  }
  void reheat() { src_[0] += 8.0f; }
  void print() const {
    printBuffer("t", t_);
    printBuffer("src", src_);
  }

private:
  ferry::Buffer<float> t_, src_;
};

int main() {
  Heat heat(64);
  ferry::Accelerator acc;
  heat.run(acc, 3);
  heat.reheat();
  heat.run(acc, 2);
  heat.print();
  return 0;
}
