// Issue 16 (OMPDart accuracy and backprop, Rodinia backprop): host writes
// that cover a buffer's first N elements, N known at run time, so the
// runtime decides whether the device's copy must come back first
// (`cc.hostWrites(b, N)`):
// - `count[0] = 0` on a one-element buffer (all of it);
// - a loop `for (i = 0; i < n; ++i) w[i] = orig[i]` restoring every element;
// - `std::copy(p, p + n, v.begin())` from a raw pointer range.
// And where the count falls short, or the loop reads the buffer: `pair[0] =
// i` on two elements (one element written: nothing comes back), a loop over
// half of v (copied back first), and `w[i] = w[i + 1]` (the elements read
// come back).
//
// By hand (count: 1 int, 4 B; pair: 2 ints, 8 B; w, v: 16 floats, 64 B):
//   loop x3: count[0] = 0 and pair[0] = i write element 0 alone: no copy
//     back, ever, and only that element goes stale on the device; bump(count)
//     copies count in (3 x 4 B), bump(pair) all of pair first (8 B), then
//     element 0 (2 x 4 B).
//   count[0] read after the loop: out (4 B).
//   scale(w) in (64); the restore loop covers w: no copy back; scale(w) in.
//   scale(v) in; std::copy covers v: no copy back; scale(v) in; the loop
//     over half of v: copied back first (64; a count from the start keeps
//     `hostWrites(v, half)`, which leaves all of v current on the host);
//     scale(v) in.
//   w[i] = w[i + 1] reads w[1..16): out (60 B), and writes w[0..15), which
//     it reads too: what of that is still stale on the host comes first,
//     w[0] (4 B; the loop writes w[0] before it reads anything there, but
//     the analysis does not follow elements through one loop); scale(w)
//     copies in the 15 written (60 B).
//   Exit: pair, w and v out (8 + 64 + 64).
//   In: count 3 + pair 3 + w 3 + v 3 = 12 (12 + 16 + 188 + 192 = 408 B).
//   Out: count 1 + v 1 + w 2 + exit 3 = 7 (4 + 64 + 64 + 136 = 268 B).
//   Whole-buffer transfers moved in 420 B, out 8 (284 B). 12 dispatches (6
//   in the loop, 6 of scale).
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 12 to_device_bytes 408 from_device 7 from_device_bytes 268
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 12
#include "Print.h"

#include <algorithm>

FERRY_KERNEL void bump(ferry::KernelContext kc, int *count) {
  if (kc.x == 0)
    count[0] += 5;
}

FERRY_KERNEL void scale(ferry::KernelContext kc, float *w) {
  w[kc.x] = w[kc.x] * 2.0f;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &count,
                       ferry::Buffer<int> &pair, ferry::Buffer<float> &w,
                       ferry::Buffer<float> &v, const float *orig, int n,
                       int half, long long &total) {
  for (int i = 0; i < 3; i++) {
    count[0] = 0;
    pair[0] = i;
    cc.dispatch(bump, ferry::Range(1), count);
    cc.dispatch(bump, ferry::Range(1), pair);
  }
  total = count[0];
  cc.dispatch(scale, ferry::Range(n), w);
  for (int i = 0; i < n; i++) // restore
    w[i] = orig[i];
  cc.dispatch(scale, ferry::Range(n), w);
  cc.dispatch(scale, ferry::Range(n), v);
  std::copy(orig, orig + n, v.begin());
  cc.dispatch(scale, ferry::Range(n), v);
  for (int i = 0; i < half; i++)
    v[i] = orig[i] + 1.0f;
  cc.dispatch(scale, ferry::Range(n), v);
  for (int i = 0; i < n - 1; i++)
    w[i] = w[i + 1];
  cc.dispatch(scale, ferry::Range(n), w);
}

int main() {
  const int n = 16;
  float orig[n];
  for (int i = 0; i < n; i++)
    orig[i] = static_cast<float>(i);
  ferry::Buffer<int> count(1), pair(2, 3);
  ferry::Buffer<float> w(n), v(n, 1.0f);
  for (int i = 0; i < n; i++)
    w[i] = orig[i] + 2.0f;
  long long total = 0;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, count, pair, w, v, orig, n, n / 2, total);
  });
  std::printf("total %lld\n", total);
  printBuffer("count", count);
  printBuffer("pair", pair);
  printBuffer("w", w);
  printBuffer("v", v);
}
