#include "model.h"

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
