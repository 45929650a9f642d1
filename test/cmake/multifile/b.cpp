// The helpers a.cpp calls. CheckMultiFileRebuilds.cmake edits the marked
// lines.
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL inline void twice(ferry::KernelContext kc, int *v) {
  v[kc.x] *= 2;
}

void step(ferry::ComputeContext &cc, ferry::Buffer<int> &v) {
  cc.dispatch(twice, ferry::Range(v.size()), v);
}

void show(ferry::Buffer<int> &v) {
  std::printf("%d %d %d\n", v[0], v[1], v[2]); // BODY
  // WRITE
}
