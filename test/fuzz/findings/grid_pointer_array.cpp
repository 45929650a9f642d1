// Fuzz finding (seed 1, programs p11 and p14, reduced by hand): an array of
// buffer pointers with a flipping index, `*grid[cur]` as a dispatch argument,
// fails the rewrite ("Ferry cannot tell which buffer this argument is").
#include <ferry/ferry.hpp>
#include <cstdio>
FERRY_KERNEL void inc(ferry::KernelContext kc, const int *from, int *to) {
  to[kc.x] = (from[kc.x] + 1) & 0xFFFF;
}
FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &a,
                       ferry::Buffer<int> &b, int steps) {
  ferry::Buffer<int> *grid[2] = {&a, &b};
  int cur = 0;
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(inc, ferry::Range(a.size()), *grid[cur], *grid[1 - cur]);
    cur = 1 - cur;
  }
}
int main() {
  ferry::Buffer<int> a(8, 1), b(8, 0);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, a, b, 3); });
  std::printf("%d %d\n", a[0], b[0]);
}
