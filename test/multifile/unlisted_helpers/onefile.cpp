// The one-file form of main.cpp, body.h and body.cpp (see main.cpp for the
// counts worked out by hand: here the lambda brings `trace` and `hits` home
// once, in compute 3, where the multi-file form brings them home after each
// `record`).
// ferry-test: golden
// ferry-test: to_device 10 to_device_bytes 2112 fills 4 fill_bytes 576
// ferry-test: from_device 10 from_device_bytes 2112
// ferry-test: unnamed_from_device 8 unnamed_from_device_bytes 2048
// ferry-test: dispatches 12
#include <ferry/ferry.hpp>

class Body {
public:
  Body(int n, float start);
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt);
  /// Adds `v` to one position on the host.
  void nudge(int i, float v);
  double sum() const {
    double s = 0;
    for (float p : pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};

/// Adds `v` to every element of `trace`, and counts the call in body.cpp's
/// static `hits`.
FERRY_COMPUTE void record(ferry::ComputeContext &cc, float v);
/// The sum of `hits` (host code of body.cpp).
int hitsTotal();
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

#include <cstdio>
#include <vector>

template <class B> void driveT(ferry::ComputeContext &cc, B &b, float dt) {
  b.step(cc, dt);
  b.nudge(3, 1.0f);
  b.step(cc, dt);
}

struct Driver {
  void operator()(ferry::ComputeContext &cc, Body &b) const {
    b.step(cc, 0.5f);
    b.nudge(5, 2.0f);
    b.step(cc, 0.5f);
  }
};

static void show(const std::vector<Body> &bodies) {
  for (const Body &b : bodies)
    std::printf("%.3f ", b.sum());
  std::printf("\n");
}

int main() {
  std::vector<Body> bodies;
  bodies.emplace_back(64, 0.0f);
  bodies.emplace_back(64, 2.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies)
      driveT(cc, b, 0.25f);
  });
  show(bodies);
  acc.compute([&](ferry::ComputeContext &cc) {
    Driver d;
    for (Body &b : bodies)
      d(cc, b);
  });
  show(bodies);
  acc.compute([&](ferry::ComputeContext &cc) {
    record(cc, 2.0f);
    std::printf("recorded\n");
    record(cc, 3.0f);
  });
  std::printf("trace %.1f %.1f, hits %d\n", trace[0], trace[7], hitsTotal());
  return 0;
}
