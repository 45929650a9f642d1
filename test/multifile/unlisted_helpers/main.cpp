// Issue 33 (found by a review and by the fuzzer's two-source layout):
// helpers between a compute lambda and a compute function of another Ferry
// source that the other file's summary cannot list, and a compute function
// of another file that writes global buffers.
//  - `driveT` is a function template and `Driver` a function object: each
//    steps a body (body.cpp), writes it on the host, and steps it again.
//    The summaries leave templates and operators out, so the target never
//    planned them, and the host write never reached the device (sums 1
//    and 2 short per body). Now a helper here that calls a function
//    another file plans is planned here, as within one file.
//  - `record`, of body.cpp, writes `trace` and body.cpp's static `hits`;
//    the lambda calls it twice with host code between, so it was planned
//    to leave its buffers to the lambda, which knew nothing of them:
//    `trace` stayed on the device (printed 0). Now a planned function
//    another file calls brings home the global buffers it reaches, and a
//    caller that runs code it cannot see here holds every global buffer
//    it can name, guarded.
//
// By hand (2 bodies of 64 floats, 256 B each; `trace` 8 floats, `hits` 8
// ints, 32 B each):
//   computes 1 and 2 (the template, the function object): each step copies
//     `pos_` in (the first of all a fill: it starts uniform), and a body's
//     first step brings it home before the nudge, its second at the
//     helper's exit: in 4, out 4 each. (`Body::step` brings it home by
//     name here: no summary lists the helpers that call it, so it plans
//     itself as called from code it cannot see. In one file, where the
//     helpers take the copies home, `pos_` is private: the registry moves
//     it, unnamed.)
//   compute 3: the first `record` copies `trace` and `hits` in (fills: both
//     start uniform) and, a function another file calls, brings both home;
//     the second copies nothing in (the device's copies are current) and
//     brings both home again: in 2, out 4. (One file moves 2 out: there
//     the lambda brings them home once.)
// In 10 (2112 B), 4 of them fills (576 B); out 12 (2176 B); dispatches 12.
// ferry-test: golden
// ferry-test: to_device 10 to_device_bytes 2112 fills 4 fill_bytes 576
// ferry-test: from_device 12 from_device_bytes 2176
// ferry-test: dispatches 12
#include "body.h"

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
