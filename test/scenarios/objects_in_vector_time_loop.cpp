// Issue 33 (objects in a vector, stepped in a time loop): each compute of a
// loop steps every body of a std::vector (or std::array) through its
// FERRY_COMPUTE member function, and nothing but the kernels of the loop's
// computes uses the bodies' buffers. main cannot name `pos_` (private), so
// each compute used to bring every body home at its exit through the
// run-time state (the safety net), eight times over. The loop now holds the
// elements' storage whole (`ferry::HomeAtScopeEnd(acc,
// ferry::buffersIn(bodies))`): the buffers stay on the device until the loop
// ends and come home once. The third loop reads the sums between its
// computes, so it holds nothing, and every compute brings them home.
//
// By hand (bodies of 256 floats, 1024 B each; sum() const is the only use
// of pos_ outside compute code, so each exit keeps its device copy):
//   loop 1 (vector of 4, range-for, 8 computes): in once each as a fill
//     (4, 4096 B, fills 4); home once after the loop (4, 4096 B, by the
//     scope's end, not by the net). 32 dispatches.
//   loop 2 (std::array of 2, index, 4 computes): in once each as a fill
//     (2, 2048 B, fills 2); home once after the loop (2, 2048 B). 8
//     dispatches.
//   loop 3 (the vector again, 3 computes, sums printed after each): its
//     device copies are still valid (kept); each compute brings the 4
//     home through the net (12, 12288 B). 12 dispatches.
//   In 6 (6144 B), fills 6 (6144 B); out 18 (18432 B), 12 of them by the
//   net (12288 B). Dispatches 52.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 6144 fills 6 fill_bytes 6144
// ferry-test: from_device 18 from_device_bytes 18432
// ferry-test: unnamed_from_device 12 unnamed_from_device_bytes 12288
// ferry-test: dispatches 52
#include "Print.h"

#include <array>
#include <vector>

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

class Body {
public:
  explicit Body(float start = 0) : pos_(256, start) {}
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

template <class Bodies> void printSums(const char *what, const Bodies &bodies) {
  std::printf("%s:", what);
  for (const Body &b : bodies)
    std::printf(" %.3f", b.sum());
  std::printf("\n");
}

int main() {
  std::vector<Body> bodies;
  for (int i = 0; i < 4; ++i)
    bodies.emplace_back(static_cast<float>(i));
  std::array<Body, 2> pair{Body(10), Body(20)};
  ferry::Accelerator acc;
  for (int t = 0; t < 8; ++t)
    acc.compute([&](ferry::ComputeContext &cc) {
      for (auto &b : bodies)
        b.step(cc, 0.125f);
    });
  printSums("vector", bodies);
  for (int t = 0; t < 4; ++t)
    acc.compute([&](ferry::ComputeContext &cc) {
      for (std::size_t i = 0; i < pair.size(); ++i)
        pair[i].step(cc, 0.5f);
    });
  printSums("array", pair);
  for (int t = 0; t < 3; ++t) {
    acc.compute([&](ferry::ComputeContext &cc) {
      for (auto &b : bodies)
        b.step(cc, 1.0f);
    });
    printSums("read each step", bodies);
  }
}
