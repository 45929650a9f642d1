// An early return from inside the loop: every buffer the caller can reach
// that is stale on the host is copied back on that path too.
//
// By hand (16 ints = 64 B per buffer): `level` in once before the loop (1);
// `doubled` is fully overwritten: no copy. The host reads level[0] after
// every dispatch: that element out once per executed iteration; level[0]
// goes 1, 3, 7, 15, 31 and passes 20 at the 5th: 5 copies of 4 B (the value
// decides whether the trip returns or dispatches again, so the read is not
// widened). The return copies the rest of `level` back (60 B) and
// `doubled` (64 B). In 1 (64 B), out 7 (5 x 4 + 60 + 64 = 144 B);
// whole-buffer copies out moved 6 (384 B).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 64 from_device 7 from_device_bytes 144
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 5
#include "Print.h"

FERRY_KERNEL void grow(ferry::KernelContext kc, int *level, int *doubled) {
  if (kc.x < kc.maxX) {
    level[kc.x] = level[kc.x] * 2 + 1;
    doubled[kc.x] = level[kc.x] * 2;
  }
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &level,
                       ferry::Buffer<int> &doubled, int limit) {
  for (int s = 0; s < 100; ++s) {
    cc.dispatch(grow, ferry::Range(level.size()), level, doubled);
    if (level[0] > limit) {
      std::printf("limit passed at step %d\n", s);
      return;
    }
  }
  std::printf("limit never passed\n");
}

int main() {
  ferry::Buffer<int> level(16), doubled(16);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, level, doubled, 20); });
  printBuffer("level", level);
  printBuffer("doubled", doubled);
}
