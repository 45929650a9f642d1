// Issue 33, findings 1 and 2: objects that own their buffer privately and
// advance it in a FERRY_COMPUTE member function, stepped from main's compute
// lambdas through a std::vector (range-for, index, a reference bound
// first) and an array of object pointers. main cannot name `pos_` (it is
// private), and the rewrite must not try: the lambda's
// exit brings home, through the run-time state, every float buffer the
// device holds newer (the safety net, `fromDeviceAllOf<float>`). Before it,
// the rewritten program printed the starting sums (nothing came home), and
// with a local object it did not compile (private_member.cpp).
//
// By hand (4 bodies of 256 floats, 1024 B each):
//   compute 1 (range-for, 4 sweeps): step's kernel reads and writes pos_;
//     each body's pos_ still holds what it was made with: in once each as a
//     fill (4, 4096 B, fills 4), never again (the device copy stays
//     valid); the exit brings each home once (4, 4096 B, by the net).
//     16 dispatches.
//   computes 2, 3, 4 (index, reference, pointer array; 2 sweeps each): the
//     host only read the sums between computes, through `sum() const`, the
//     one use of pos_ outside compute code: each exit keeps its device copy
//     (`cc.keepDeviceCopy`), so nothing goes in again; each pos_ comes home
//     once (4 each, by the net). 8 dispatches each.
//   In 4 (4096 B), fills 4 (4096 B); out 16 (16384 B), all by the net.
//   Dispatches 16 + 3 x 8 = 40.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 4096 fills 4 fill_bytes 4096
// ferry-test: from_device 16 from_device_bytes 16384
// ferry-test: unnamed_from_device 16 unnamed_from_device_bytes 16384
// ferry-test: dispatches 40
#include "Print.h"

#include <vector>

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

class Body {
public:
  Body(int n, float start) : pos_(static_cast<std::size_t>(n), start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt) {
    cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
  }
  double sum() const {
    double s = 0;
    for (float p : pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};

static void printSums(const char *what, const std::vector<Body> &bodies) {
  std::printf("%s:", what);
  for (const Body &b : bodies)
    std::printf(" %.3f", b.sum());
  std::printf("\n");
}

int main() {
  std::vector<Body> bodies;
  for (int i = 0; i < 4; ++i)
    bodies.emplace_back(256, static_cast<float>(i));
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int s = 0; s < 4; s++)
      for (auto &b : bodies)
        b.step(cc, 0.125f);
  });
  printSums("range-for", bodies);
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int s = 0; s < 2; s++)
      for (std::size_t i = 0; i < bodies.size(); ++i)
        bodies[i].step(cc, 0.25f);
  });
  printSums("index", bodies);
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int s = 0; s < 2; s++)
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        Body &b = bodies[i];
        b.step(cc, 0.5f);
      }
  });
  printSums("reference", bodies);
  Body *all[4] = {&bodies[0], &bodies[1], &bodies[2], &bodies[3]};
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int s = 0; s < 2; s++)
      for (Body *b : all)
        b->step(cc, 1.0f);
  });
  printSums("pointers", bodies);
}
