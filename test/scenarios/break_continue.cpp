// `continue` skips a dispatch, `break` leaves after a host read: the state
// each jump carries meets the loop's own at its head and exit.
//
// By hand (16 ints = 64 B): `values` in once, at the first dispatch (1):
// guarded there rather than hoisted, since a trip may `continue` before it
// and the loop may then end (the planner cannot know that s = 0 is even,
// so a copy above the loop is not down-safe). Even steps
// dispatch and then read values[0] (2, 4, 8, ..., 128): that element out
// after each of the 7 dispatches (7 x 4 B), the 7th passing 100 and
// breaking. Odd steps `continue` before touching anything. After the loop
// values[3] is read and the exit needs all of `values`, with no kernel in
// between: the read is widened to the whole buffer, which moves what is
// still stale, elements 1..15 (60 B); nothing at the exit.
// In 1, out 8 (7 x 4 + 60 = 88 B); whole-buffer copies out moved 7 (448 B).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 1 to_device_bytes 64 from_device 8 from_device_bytes 88
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 7
#include "Print.h"

FERRY_KERNEL void doubleAll(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] *= 2;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &values,
                       int limit) {
  int steps = 0;
  for (int s = 0; s < 50; ++s) {
    if (s % 2 == 1)
      continue;
    cc.dispatch(doubleAll, ferry::Range(values.size()), values);
    ++steps;
    if (values[0] > limit)
      break;
  }
  std::printf("%d dispatches, values[3] = %d\n", steps, values[3]);
}

int main() {
  ferry::Buffer<int> values(16, 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, values, 100); });
  printBuffer("values", values);
}
