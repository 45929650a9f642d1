#include "body.h"

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

FERRY_KERNEL void addTo(ferry::KernelContext kc, float *t, float v) {
  t[kc.x] += v;
}

FERRY_KERNEL void count(ferry::KernelContext kc, int *h) { h[kc.x] += 1; }

Body::Body(int n, float start) : pos_(n, start) {}

void Body::step(ferry::ComputeContext &cc, float dt) {
  cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
}

void Body::nudge(int i, float v) { pos_[i] += v; }

ferry::Buffer<float> trace(8, 0.0f);
static ferry::Buffer<int> hits(8, 0);

void record(ferry::ComputeContext &cc, float v) {
  cc.dispatch(addTo, ferry::Range(trace.size()), trace, v);
  cc.dispatch(count, ferry::Range(hits.size()), hits);
}

int hitsTotal() {
  int total = 0;
  for (int h : hits)
    total += h;
  return total;
}
