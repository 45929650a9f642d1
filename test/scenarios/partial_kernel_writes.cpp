// Kernels that write part of a buffer (issue 22): what a kernel writes is
// what comes back, and what it leaves alone stays where it is valid.
//
// By hand (every buffer 64 ints = 256 B, written by main, so no fills):
// - `half`: kernel `firstHalf` stores out[kc.x] over Range(32): elements
//   [0, 32) and nothing else (ferry::wo): nothing in first.
// - `rows`, a grid of 4 rows of 16: kernel `interior` stores rows 1 and 2
//   (`out[(kc.y + 1) * kc.maxX + kc.x]` over Range(16, 2): ferry::woFrom,
//   from element 16): nothing in; rows 0 and 3 stay the host's. It reads
//   `half` at [32, 64), which only the host holds: the launch copies that
//   part in first (128 B).
// - `spill`: kernel `both` stores out[kc.x] and out[kc.x + 32] over
//   Range(32): it stores past its range (ferry::woBeyond), so all of it goes
//   in first, as before issue 22 (256 B).
// Exit: `half` brings back [0, 32) (128 B), `rows` [16, 48) (128 B),
// `spill` all of it (256 B).
// In 2 (384 B), out 3 (512 B). Whole-buffer transfers moved in 3 (768 B),
// out 3 (768 B).
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 384 from_device 3 from_device_bytes 512
// ferry-test: fills 0
// ferry-test: dispatches 3
#include "Print.h"

FERRY_KERNEL void firstHalf(ferry::KernelContext kc, int *out, int v) {
  out[kc.x] = v + kc.x;
}

FERRY_KERNEL void interior(ferry::KernelContext kc, const int *in, int *out) {
  out[(kc.y + 1) * kc.maxX + kc.x] = in[kc.y * kc.maxX + kc.x + 32] * 10;
}

FERRY_KERNEL void both(ferry::KernelContext kc, int *out) {
  out[kc.x] = -1;
  out[kc.x + 32] = -2;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &half,
                       ferry::Buffer<int> &rows, ferry::Buffer<int> &spill) {
  cc.dispatch(firstHalf, ferry::Range(half.size() / 2), half, 7);
  cc.dispatch(interior, ferry::Range(16, 2), half, rows);
  cc.dispatch(both, ferry::Range(spill.size() / 2), spill);
}

int main() {
  ferry::Buffer<int> half(64), rows(64), spill(64);
  for (int i = 0; i < 64; ++i) {
    half[i] = 1000 + i;
    rows[i] = 2000 + i;
    spill[i] = 3000 + i;
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, half, rows, spill); });
  printBuffer("half", half);
  std::printf("half[31] %d half[32] %d\n", half[31], half[32]);
  printBuffer("rows", rows);
  std::printf("rows[15] %d rows[16] %d rows[47] %d rows[48] %d\n", rows[15],
              rows[16], rows[47], rows[48]);
  printBuffer("spill", spill);
  std::printf("spill[63] %d\n", spill[63]);
}
