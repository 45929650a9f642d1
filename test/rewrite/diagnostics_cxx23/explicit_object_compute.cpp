// A compute function, and a helper that dispatches, with a C++23 explicit
// object parameter: Ferry plans member functions through `this`, so each
// is an error at the parameter, not a complaint about the first parameter.
#include <ferry/ferry.hpp>

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt;
}

class Body {
public:
  explicit Body(int n) : pos_(static_cast<std::size_t>(n), 0.0f) {}
  // CHECK: 14:27: error: compute function 'step' has an explicit object parameter ('this Body &self'), which Ferry does not support
  FERRY_COMPUTE void step(this Body &self, ferry::ComputeContext &cc,
                          float dt) {
    cc.dispatch(drift, ferry::Range(self.pos_.size()), self.pos_, dt);
  }
  // CHECK: 19:13: error: dispatching function 'half' has an explicit object parameter ('this Body &self'), which Ferry does not support
  void half(this Body &self, ferry::ComputeContext &cc) {
    cc.dispatch(drift, ferry::Range(self.pos_.size() / 2), self.pos_, 1.0f);
  }

private:
  ferry::Buffer<float> pos_;
};

int main() {
  Body b(64);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    b.step(cc, 0.5f);
    b.half(cc);
  });
  return 0;
}
