// Issue 33 (a soundness gap the virtual-call fix left, found by hand): the
// classes whose objects a compute steps are parts.cpp's own, and main.cpp
// sees them only through their base `Part`, declared in part.h
// (`std::vector<std::unique_ptr<Part>>` filled by `makeBody`, `makeMesh`).
// `Body::settle` calls `step` directly, so parts.cpp plans `Body::step` as
// a callee that leaves `pos_` on the device for its caller. A call through
// the base in main.cpp is one Ferry cannot see into, and counts as touching
// every buffer of the types the classes derived from `Part` hold; but the
// classes of main.cpp's own unit hold none, so nothing brought `pos_`
// home: the tool of d1357fa printed `after 1: 64.0 64.0` where the
// reference prints `after 1: 254.5 382.0`. parts.cpp's summary now lists
// its polymorphic classes that hold buffers (`polymorphic_buffers`: each
// class's bases, and the element types it and its bases hold), and main.cpp
// guesses those of every class of the target derived from `Part`: `float`,
// `int`, and `Spot`, which main.cpp cannot name, so any type
// (`cc.hostWritesAllOf()`, `cc.fromDeviceAllOf()`). The one-file form
// (onefile.cpp) names the three types and moves the same bytes.
//
// By hand (pos_: 64 floats, 256 B; cells_.n: 32 ints, 128 B; spots_: 32
// Spots of 8 B, 256 B; pos_ and cells_.n start uniform, so their first
// copies in are fills):
//   compute 1, each part stepped through the base: Body::step copies pos_
//     in (a fill), and the guess before Mesh::step brings it home (unnamed);
//     Mesh::step copies cells_.n (a fill) and spots_ in, and the exit brings
//     both home (unnamed): in 3 (640 B), out 3 (640 B).
//   compute 2, settle, poke and step of the body through a reference to the
//     base: settle runs as an entry (code Ferry does not plan calls it), so
//     it copies pos_ in and home (256 B each way); the guess before poke
//     marks it stale on the device, so step copies it in again (256 B), and
//     the exit brings it home (unnamed): in 2 (512 B), out 2 (512 B).
//   compute 3, the mesh settled as an entry: in 2 (384 B), out 2 (384 B).
//   In 7 (1,536 B, 2 fills of 384 B), out 7 (1,536 B, 4 of them unnamed,
//   896 B), dispatches 2 + 3 + 1 = 6. A hand-written port that knew each
//   object would keep the device copies between computes and copy in 4;
//   the guesses cost copies, never results (docs/limitations.md).
// ferry-test: golden
// ferry-test: to_device 7 to_device_bytes 1536 fills 2 fill_bytes 384
// ferry-test: from_device 7 from_device_bytes 1536
// ferry-test: unnamed_from_device 4 unnamed_from_device_bytes 896
// ferry-test: dispatches 6
#include "part.h"

#include <cstdio>
#include <memory>
#include <vector>

int main() {
  std::vector<std::unique_ptr<Part>> parts;
  parts.emplace_back(makeBody(1.f));
  parts.emplace_back(makeMesh(2));
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (auto &p : parts)
      p->step(cc, 3);
  });
  std::printf("after 1: %.1f %.1f\n", parts[0]->sum(), parts[1]->sum());
  Part &body = *parts[0];
  acc.compute([&](ferry::ComputeContext &cc) {
    body.settle(cc);
    body.poke(100);
    body.step(cc, 5);
  });
  std::printf("after 2: %.1f %.1f\n", parts[0]->sum(), parts[1]->sum());
  acc.compute([&](ferry::ComputeContext &cc) { parts[1]->settle(cc); });
  std::printf("after 3: %.1f %.1f\n", parts[0]->sum(), parts[1]->sum());
}
