// The one-file form of main.cpp, model.h and model.cpp (see main.cpp for
// the counts worked out by hand, which both must meet).
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 1024
// ferry-test: from_device 3 from_device_bytes 3072
// ferry-test: unnamed_from_device 3 unnamed_from_device_bytes 3072
// ferry-test: dispatches 36
#include <ferry/ferry.hpp>

class Model {
public:
  explicit Model(int n);
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt);
  const ferry::Buffer<float> &state() const { return state_; }

private:
  ferry::Buffer<float> state_;
  ferry::Buffer<float> flux_;
  ferry::Buffer<float> tend_;
};

FERRY_KERNEL void fluxes(ferry::KernelContext kc, const float *state,
                         float *flux) {
  flux[kc.x] = 0.5f * (state[(kc.x + 1) % kc.maxX] - state[kc.x]);
}

FERRY_KERNEL void tendency(ferry::KernelContext kc, const float *flux,
                           float *tend) {
  tend[kc.x] = flux[kc.x] - flux[(kc.x + kc.maxX - 1) % kc.maxX];
}

FERRY_KERNEL void advance(ferry::KernelContext kc, float *state,
                          const float *tend, float dt) {
  state[kc.x] += dt * tend[kc.x];
}

Model::Model(int n)
    : state_(static_cast<std::size_t>(n)), flux_(static_cast<std::size_t>(n)),
      tend_(static_cast<std::size_t>(n)) {
  for (int i = 0; i < n; ++i)
    state_[static_cast<std::size_t>(i)] = static_cast<float>((i * 7) % 11);
}

FERRY_COMPUTE void Model::step(ferry::ComputeContext &cc, float dt) {
  cc.dispatch(fluxes, ferry::Range(state_.size()), state_, flux_);
  cc.dispatch(tendency, ferry::Range(state_.size()), flux_, tend_);
  cc.dispatch(advance, ferry::Range(state_.size()), state_, tend_, dt);
}

#include <cstdio>

int main() {
  Model model(256);
  ferry::Accelerator acc;
  for (int c = 0; c < 3; ++c) {
    acc.compute([&](ferry::ComputeContext &cc) {
      for (int s = 0; s < 4; ++s)
        model.step(cc, 0.25f);
    });
    double sum = 0;
    for (float v : model.state())
      sum += v;
    std::printf("compute %d: state sum %.4f, state[3] %.4f\n", c, sum,
                static_cast<double>(model.state()[3]));
  }
}
