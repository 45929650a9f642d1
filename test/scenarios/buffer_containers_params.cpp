// The twin of buffer_containers.cpp with the buffers as parameters: the
// same kernels and the same order of dispatches and host accesses, the
// levels loop unrolled over three buffer parameters. It must move exactly
// the bytes its twin moves (see the hand count there).
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 132 from_device 4 from_device_bytes 228
// ferry-test: dispatches 9
#include "Print.h"

FERRY_KERNEL void smoothKernel(ferry::KernelContext kc, float *u) {
  u[kc.x] = 0.5f * u[kc.x] + 1.0f;
}

FERRY_KERNEL void restrictKernel(ferry::KernelContext kc, const float *fine,
                                 float *coarse) {
  coarse[kc.x] = 0.5f * (fine[2 * kc.x] + fine[2 * kc.x + 1]);
}

FERRY_KERNEL void prolongKernel(ferry::KernelContext kc, const float *coarse,
                                float *fine) {
  fine[kc.x] = fine[kc.x] + 0.25f * coarse[kc.x / 2];
}

FERRY_COMPUTE void vcycle(ferry::ComputeContext &cc, ferry::Buffer<float> &l0,
                          ferry::Buffer<float> &l1, ferry::Buffer<float> &l2,
                          int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    cc.dispatch(smoothKernel, ferry::Range(l0.size()), l0);
  cc.dispatch(restrictKernel, ferry::Range(l1.size()), l0, l1);
  for (int s = 0; s < sweeps; ++s)
    cc.dispatch(smoothKernel, ferry::Range(l1.size()), l1);
  cc.dispatch(restrictKernel, ferry::Range(l2.size()), l1, l2);
  l2[0] += 1.0f;
  cc.dispatch(smoothKernel, ferry::Range(l2.size()), l2);
  cc.dispatch(prolongKernel, ferry::Range(l1.size()), l2, l1);
  cc.dispatch(prolongKernel, ferry::Range(l0.size()), l1, l0);
  float corners = l0[0] + l1[0] + l2[0];
  std::printf("corners %.4f fine[3] %.4f\n", corners, l0[3]);
}

int main() {
  ferry::Buffer<float> l0(32), l1(16), l2(8);
  ferry::Buffer<float> *levels[3] = {&l0, &l1, &l2};
  for (ferry::Buffer<float> *level : levels) {
    const int n = static_cast<int>(level->size());
    for (int i = 0; i < n; ++i)
      (*level)[i] = static_cast<float>((i * 7 + n) % 11);
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { vcycle(cc, l0, l1, l2, 2); });
  printBuffer("level0", l0);
  printBuffer("level1", l1);
  printBuffer("level2", l2);
}
