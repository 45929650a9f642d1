// Issue 33: a buffer no object of the plan stands for is named by the
// dispatch argument's own text (`grids_.cur`, a member of a member;
// `named.at(1)`, a map's value: test/scenarios/nested_members.cpp), so the
// only argument Ferry still cannot name is one it cannot evaluate again
// for the lines around the launch: one with a side effect. It is rejected
// at the dispatch argument, once, although it sits in a loop the planner
// walks several times.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <map>

FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }

FERRY_COMPUTE void byKey(ferry::ComputeContext &cc,
                         std::map<int, ferry::Buffer<float>> &named) {
  int key = 0;
  for (int r = 0; r < 2; ++r)
    cc.dispatch(twice, ferry::Range(4), named.at(++key));
}

int main() {
  std::map<int, ferry::Buffer<float>> named;
  named.emplace(1, ferry::Buffer<float>(4, 1.0f));
  named.emplace(2, ferry::Buffer<float>(4, 1.0f));
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { byKey(cc, named); });
  std::printf("%g %g\n", named.at(1)[0], named.at(2)[0]);
}
// CHECK: 19:47: error: Ferry cannot tell which buffer this argument is
