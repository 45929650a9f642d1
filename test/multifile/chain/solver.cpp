// The chain program's solver: one dispatching helper and three host helpers
// main.cpp calls; `total` reaches `sumRange` in main.cpp, a chain across
// files both ways.
#include "kernels.h"
#include "solver.h"

double sumRange(ferry::Buffer<float> &b, std::size_t from, std::size_t to);

void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
          ferry::Buffer<float> &b) {
  cc.dispatch(scale, ferry::Range(a.size()), a, 2.0f);
  cc.dispatch(addTo, ferry::Range(a.size()), a, b);
}

void ramp(ferry::Buffer<float> &a) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(i % 7);
}

double total(ferry::Buffer<float> &b) { return sumRange(b, 0, b.size()); }

void bump(ferry::Buffer<float> &b, float by) {
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] += by;
}
