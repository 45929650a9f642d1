// Issue 33 (found by the fuzzer's two-source layout): a plain helper that
// a compute lambda calls, `drive(cc, b)`, steps a body, writes it on the
// host (`b.nudge`) and steps it again, where `Body::step` and `nudge` are
// defined in another Ferry source (body.cpp). Within one file the helper
// is host code to plan, between a compute lambda and a planned function;
// across files it was planned only where its callee's body was in the same
// file, so nothing marked the host write: the second step ran on the
// device's copy without the nudge (and the reference's sums differ).
// Now the target's summaries plan such a helper wherever its callee is
// defined, and both forms make the same copies.
//
// By hand (2 bodies of 64 floats, 256 B each; `pos_` is private, so main
// and `drive` cannot name it: the run-time registry moves it):
//   each body: its first step copies `pos_` in (a fill: it starts
//     uniform); before `nudge`, the host may write buffers of `float` it
//     cannot name, so whatever of them the device holds newer comes home
//     (this body's `pos_`, 1); the second step copies it in again, and
//     `drive`'s exit brings it home (1).
// In 4 (1024 B), 2 of them fills (512 B); out 4 (1024 B), all through the
// registry (unnamed); dispatches 4.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 1024 fills 2 fill_bytes 512
// ferry-test: from_device 4 from_device_bytes 1024
// ferry-test: dispatches 4
// ferry-test: unnamed_from_device 4 unnamed_from_device_bytes 1024
#include "body.h"

#include <cstdio>
#include <vector>

static void drive(ferry::ComputeContext &cc, Body &b, float dt) {
  b.step(cc, dt);
  b.nudge(3, 1.0f);
  b.step(cc, dt);
}

int main() {
  std::vector<Body> bodies;
  bodies.emplace_back(64, 0.0f);
  bodies.emplace_back(64, 2.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (Body &b : bodies)
      drive(cc, b, 0.25f);
  });
  for (const Body &b : bodies)
    std::printf("%.3f\n", b.sum());
  return 0;
}
