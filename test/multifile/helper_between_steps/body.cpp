#include "body.h"

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

Body::Body(int n, float start) : pos_(n, start) {}

void Body::step(ferry::ComputeContext &cc, float dt) {
  cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
}

void Body::nudge(int i, float v) { pos_[i] += v; }
