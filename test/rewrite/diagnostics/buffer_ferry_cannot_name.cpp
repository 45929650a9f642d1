// Issue 23, part 3: buffers in objects and containers that Ferry still
// cannot name: a member of a member (`grids_.cur` of `this`), and a map's
// value. Each is rejected at the dispatch argument, once, although the
// first sits in a loop the planner walks several times.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <map>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

struct Grids {
  ferry::Buffer<float> cur{1.0f, 2.0f, 3.0f, 4.0f};
};

class Solver {
public:
  FERRY_COMPUTE void run(ferry::ComputeContext &cc, int rounds) {
    for (int r = 0; r < rounds; ++r)
      cc.dispatch(twice, ferry::Range(4), grids_.cur);
  }
  Grids grids_;
};

FERRY_COMPUTE void byKey(ferry::ComputeContext &cc,
                         std::map<int, ferry::Buffer<float>> &named) {
  cc.dispatch(twice, ferry::Range(4), named.at(1));
}

int main() {
  Solver s;
  std::map<int, ferry::Buffer<float>> named;
  named.emplace(1, ferry::Buffer<float>(4, 1.0f));
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { s.run(cc, 2); });
  acc.compute([&](ferry::ComputeContext &cc) { byKey(cc, named); });
  std::printf("%g %g\n", s.grids_.cur[0], named.at(1)[0]);
}
// CHECK: 20:50: error: Ferry cannot tell which buffer this argument is
// CHECK: 27:45: error: Ferry cannot tell which buffer this argument is
