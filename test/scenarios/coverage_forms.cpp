// Issue 16, items 9 and 10: whole writes written the way real programs write
// them. Rodinia nn stores through a local pointer (`int *p = out + gid; *p =
// v;` under `if (gid < n)`): it covers `out`, so nothing is copied in for it.
// backprop copies a std::vector of the buffer's size over it between
// dispatches: the runtime sees that `next.size()` covers `in` and copies
// nothing back first.
//
// By hand (in, out: 16 ints = 64 B): dispatch 1 reads in: in (1); out is
// overwritten (no copy). out[3] is read: that element back (1, 4 B; the
// next dispatch writes out again, so the read is not widened). std::copy
// overwrites in whole: no copy back. Dispatch 2 reads in: in (2). Exit: out
// back (2, 64 B); in's host copy is current. In 2 (128 B), out 2 (68 B);
// whole-buffer copies out moved 128 B.
// ferry-test: golden
// Fills: 1 of the copies in above (64 B) is of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 2 to_device_bytes 128 from_device 2 from_device_bytes 68
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 2
#include "Print.h"

#include <algorithm>
#include <vector>

FERRY_KERNEL void nearest(ferry::KernelContext kc, const int *in, int *out,
                          int n) {
  int gid = kc.x;
  if (gid < n) {
    int *p = out + gid;
    *p = in[gid] * 2 + 1;
  }
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<int> &out, const std::vector<int> &next) {
  cc.dispatch(nearest, ferry::Range(in.size()), in, out, (int)in.size());
  std::printf("first: %d\n", out[3]);
  std::copy(next.begin(), next.end(), in.begin());
  cc.dispatch(nearest, ferry::Range(in.size()), in, out, (int)in.size());
}

int main() {
  ferry::Buffer<int> in(16, 3), out(16, 0);
  std::vector<int> next(16);
  for (int i = 0; i < 16; ++i)
    next[i] = i * 5;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, in, out, next); });
  printBuffer("in", in);
  printBuffer("out", out);
}
