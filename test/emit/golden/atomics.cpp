// The atomics, on int and unsigned elements of buffers and of local arrays,
// as the OpenCL C 1.2 built-ins; each returns the old value.
#include <ferry/ferry.hpp>

FERRY_KERNEL void histogram(ferry::KernelContext kc, const int* values,
                            unsigned* bins) {
  ferry::atomicAdd(&bins[values[kc.x] % 16], 1u);
}

// A histogram per group in local memory, then added to the buffer.
FERRY_KERNEL void localHistogram(ferry::KernelContext kc, const int* values,
                                 int* bins) {
  ferry::Local<int, 16> counts;
  if (kc.localX < 16)
    counts[kc.localX] = 0;
  kc.barrier();
  ferry::atomicAdd(&counts[values[kc.x] % 16], 1);
  kc.barrier();
  if (kc.localX < 16)
    ferry::atomicAdd(&bins[kc.localX], counts[kc.localX]);
}

FERRY_KERNEL void everyAtomic(ferry::KernelContext kc, int* s, unsigned* u,
                              int* old) {
  int i = kc.x;
  old[7 * i] = ferry::atomicSub(&s[0], 2);
  old[7 * i + 1] = ferry::atomicMin(&s[1], i);
  old[7 * i + 2] = ferry::atomicMax(&s[2], i);
  old[7 * i + 3] = static_cast<int>(ferry::atomicAnd(&u[0], ~(1u << (i % 32))));
  old[7 * i + 4] = static_cast<int>(ferry::atomicOr(&u[1], 1u << (i % 32)));
  old[7 * i + 5] = static_cast<int>(ferry::atomicXor(&u[2], 3u));
  old[7 * i + 6] = ferry::atomicExchange(&s[3], i) >= 0 ? 1 : 0;
  ferry::atomicCompareExchange(&s[4], i, i + 1);
}

// An atomic through a pointer parameter of a helper: one version per space.
static void bump(int* counter) { ferry::atomicAdd(counter, 1); }

FERRY_KERNEL void bumps(ferry::KernelContext kc, int* total) {
  ferry::Local<int, 1> mine;
  if (kc.localX == 0)
    mine[0] = 0;
  kc.barrier();
  bump(&mine[0]);
  bump(total);
  kc.barrier();
}
