// A try inside compute code: an exception would skip the copies planned after
// its throw, so Ferry rejects it (review finding, issue 16).
#include <ferry/ferry.hpp>
#include <cstdio>
FERRY_KERNEL void twice(ferry::KernelContext kc, float *v) { v[kc.x] *= 2.0f; }
FERRY_COMPUTE void dbl(ferry::ComputeContext &cc, ferry::Buffer<float> &v, int flag) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
  if (flag) throw flag;
  v[0] = 50.0f;
}
int main() {
  ferry::Buffer<float> s(4, 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    try {
      dbl(cc, s, 0);
      dbl(cc, s, 1);
    } catch (int) {
      std::printf("caught %g\n", s[2]);
    }
    s[1] += 1.0f;
    dbl(cc, s, 0);
  });
  std::printf("s %g %g %g\n", s[0], s[1], s[3]);
}
// CHECK: 15:5: error: compute function 'lambda' uses try, which Ferry's planner does not follow
