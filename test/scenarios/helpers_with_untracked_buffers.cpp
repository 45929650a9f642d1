// A dispatching helper handed buffers its caller does not name in its own
// code: the members of a struct the caller only passes on (`stepCur(cc, g)`,
// `stepNext(cc, &g)`). Once a wrong result (the helpers left the kernels'
// results on the device, and the caller had no name for them); then the
// helpers brought them home themselves. Now the caller names each buffer by
// its access path in the struct it hands over (`g.cur`, `g.next`), so the
// helpers hand them back unsynced and the caller brings them home at its
// exit, as for buffer arguments. The elements of a std::vector of buffers the
// caller does name (issue 23: one object for all of them), so `step` hands
// them back unsynced and `buffers` brings each home at its exit, guarded.
//
// By hand (every buffer 4 ints = 16 B): grids: stepCur's and stepNext's
// kernels read and write g.cur, then g.next: in 1 + out 1 each (2, 2). buffers: each
// step call copies its buffer in (bufs[0], bufs[1], x: 3); at the exit each
// comes back (3). In 5 (80 B), out 5 (80 B).
// ferry-test: golden
// Fills: 5 of the copies in above (80 B) are of a buffer still
// holding what it was made with (`Buffer<T> b(n)` or `b(n, v)`, not handed
// out since): the device fills it, so no byte crosses the bus; to_device
// counts it like any copy in, and fills again.
// ferry-test: to_device 5 to_device_bytes 80 from_device 5 from_device_bytes 80
// ferry-test: fills 5 fill_bytes 80
// ferry-test: dispatches 5
#include "Print.h"

#include <vector>

struct Grids {
  ferry::Buffer<int> cur, next;
};

FERRY_KERNEL void inc(ferry::KernelContext kc, int *v) { v[kc.x] += 1; }

static void step(ferry::ComputeContext &cc, ferry::Buffer<int> &b) {
  cc.dispatch(inc, ferry::Range(b.size()), b);
}

static void stepCur(ferry::ComputeContext &cc, Grids &g) {
  cc.dispatch(inc, ferry::Range(g.cur.size()), g.cur);
}

static void stepNext(ferry::ComputeContext &cc, Grids *g) {
  cc.dispatch(inc, ferry::Range(g->next.size()), g->next);
}

FERRY_COMPUTE void grids(ferry::ComputeContext &cc, Grids &g) {
  stepCur(cc, g);
  stepNext(cc, &g);
}

FERRY_COMPUTE void buffers(ferry::ComputeContext &cc,
                           std::vector<ferry::Buffer<int>> &bufs,
                           ferry::Buffer<int> &x) {
  for (std::size_t i = 0; i < bufs.size(); ++i)
    step(cc, bufs[i]);
  step(cc, x);
}

int main() {
  Grids g{ferry::Buffer<int>(4, 1), ferry::Buffer<int>(4, 5)};
  std::vector<ferry::Buffer<int>> bufs;
  bufs.emplace_back(4, 10);
  bufs.emplace_back(4, 20);
  ferry::Buffer<int> x(4, 3);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { grids(cc, g); });
  acc.compute([&](ferry::ComputeContext &cc) { buffers(cc, bufs, x); });
  printBuffer("cur", g.cur);
  printBuffer("next", g.next);
  printBuffer("bufs[0]", bufs[0]);
  printBuffer("bufs[1]", bufs[1]);
  printBuffer("x", x);
}
