// FERRY_WO is the user's promise that the kernel overwrites every element
// the host reads later. `columns` writes one column per work-item: a range of
// `cols` work-items overwrites all rows * cols elements of `out`, which no
// analysis of `out[r * kc.maxX + kc.x]` proves. The rewriter passes `out` as
// ferry::woDeclared(out), and under the planned policy the runtime copies
// nothing in, although the range has fewer work-items than `out` elements
// (as ferry::wo(out) it would copy `out` in, to keep what the kernel does
// not write).
//
// By hand (16 rows x 8 columns of ints = 512 B): no copy in; the host prints
// `out` after compute returns, so one copy out at the exit of `run`.
// ferry-test: golden
// ferry-test: to_device 0 to_device_bytes 0
// ferry-test: from_device 1 from_device_bytes 512 dispatches 1
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL void columns(ferry::KernelContext kc, FERRY_WO int *out,
                          int rows) {
  for (int r = 0; r < rows; ++r)
    out[r * kc.maxX + kc.x] = r * 100 + kc.x;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &out,
                       int rows, int cols) {
  cc.dispatch(columns, ferry::Range(cols), out, rows);
}

int main() {
  const int rows = 16, cols = 8;
  ferry::Buffer<int> out(rows * cols, -1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, out, rows, cols); });
  // Every element, so that one the kernel left alone (-1) would show.
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      std::printf(" %d", out[r * cols + c]);
    std::printf("\n");
  }
}
