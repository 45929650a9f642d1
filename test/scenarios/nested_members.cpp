// Issue 33, findings 3 and 4: a solver class keeps its two grids in a
// struct member, `Grid grid_`, and dispatches on the members of that
// member (`grid_.cur`, `grid_.next`), directly and through a free compute
// helper taking `Grid &`. Between two helper calls the host writes
// `grid_.cur[3]`, in the member compute function itself and in a host
// member function it calls. Before, the dispatch on `grid_.cur` was an
// error ("Ferry cannot tell which buffer this argument is"), and the host
// write was lost: no line recorded it, so the second helper call's
// kernels ran without it.
//
// Each buffer is named by its access path, `this->grid_.cur`, at whatever
// depth it sits, so the solver is planned like its twin with two buffer
// members (nested_members_twin.cpp): the same lines, the same bytes.
//
// By hand (n = 64 floats, 256 B each):
//   run(3): the first kernel reads cur (in, 256 B) and overwrites next;
//     nothing more goes in. The exit brings cur and next home (2, 512 B).
//   Between the computes only `print() const` reads grid_ (the host
//     writes in bump() and runWithHelper run inside a compute): the exits
//     keep the device copies (`cc.keepDeviceCopy(this->grid_.cur)`).
//   runWithHelper(): sweep takes `Grid &`, whose buffers its only caller
//     names (`grid_.cur`, `grid_.next`), so it leaves them to that caller.
//     sweep 1: cur is on the device already. The host writes cur[3]:
//     that element comes home (4 B) and is stale on the device, so sweep 2
//     copies it in
//     (4 B). bump() writes `grid_.cur[3]` on the host: the same again
//     (4 B home, 4 B in before sweep 3). The exit: cur and next home
//     (2, 512 B).
//   In 3 (264 B, two of them 4 B), out 6 (1032 B, two of them 4 B).
//   Dispatches 6 + 6 = 12.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 264
// ferry-test: from_device 6 from_device_bytes 1032
// ferry-test: dispatches 12
#include "Print.h"

FERRY_KERNEL void relax(ferry::KernelContext kc, const float *cur,
                        float *next) {
  next[kc.x] = 0.5f * cur[kc.x] + 0.25f * cur[(kc.x + 1) % kc.maxX];
}

struct Grid {
  explicit Grid(int n) : cur(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n), 0.0f) {
    for (int i = 0; i < n; ++i)
      cur[static_cast<std::size_t>(i)] = static_cast<float>(i % 9);
  }
  ferry::Buffer<float> cur, next;
};

FERRY_COMPUTE void sweep(ferry::ComputeContext &cc, Grid &g) {
  cc.dispatch(relax, ferry::Range(g.cur.size()), g.cur, g.next);
  cc.dispatch(relax, ferry::Range(g.cur.size()), g.next, g.cur);
}

class Solver {
public:
  explicit Solver(int n) : grid_(n) {}
  FERRY_COMPUTE void run(ferry::ComputeContext &cc, int sweeps) {
    for (int s = 0; s < sweeps; ++s) {
      cc.dispatch(relax, ferry::Range(grid_.cur.size()), grid_.cur,
                  grid_.next);
      cc.dispatch(relax, ferry::Range(grid_.cur.size()), grid_.next,
                  grid_.cur);
    }
  }
  FERRY_COMPUTE void runWithHelper(ferry::ComputeContext &cc) {
    sweep(cc, grid_);
    grid_.cur[3] += 100.0f;
    sweep(cc, grid_);
    bump();
    sweep(cc, grid_);
  }
  void print() const {
    printBuffer("cur", grid_.cur);
    printBuffer("next", grid_.next);
  }

private:
  void bump() { grid_.cur[3] += 1000.0f; }
  Grid grid_;
};

int main() {
  Solver solver(64);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { solver.run(cc, 3); });
  solver.print();
  acc.compute([&](ferry::ComputeContext &cc) { solver.runWithHelper(cc); });
  solver.print();
}
