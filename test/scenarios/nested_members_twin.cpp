// Issue 33's nested-member solver (nested_members.cpp) with its grids as
// two buffer members of the class and the helper taking two buffers: the
// twin the nested form must be planned like. Same program, same prints,
// and by the same count (see nested_members.cpp) the same transfers.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 264
// ferry-test: from_device 6 from_device_bytes 1032
// ferry-test: dispatches 12
#include "Print.h"

FERRY_KERNEL void relax(ferry::KernelContext kc, const float *cur,
                        float *next) {
  next[kc.x] = 0.5f * cur[kc.x] + 0.25f * cur[(kc.x + 1) % kc.maxX];
}

FERRY_COMPUTE void sweep(ferry::ComputeContext &cc, ferry::Buffer<float> &cur,
                         ferry::Buffer<float> &next) {
  cc.dispatch(relax, ferry::Range(cur.size()), cur, next);
  cc.dispatch(relax, ferry::Range(cur.size()), next, cur);
}

class Solver {
public:
  explicit Solver(int n)
      : cur_(static_cast<std::size_t>(n)), next_(static_cast<std::size_t>(n), 0.0f) {
    for (int i = 0; i < n; ++i)
      cur_[static_cast<std::size_t>(i)] = static_cast<float>(i % 9);
  }
  FERRY_COMPUTE void run(ferry::ComputeContext &cc, int sweeps) {
    for (int s = 0; s < sweeps; ++s) {
      cc.dispatch(relax, ferry::Range(cur_.size()), cur_,
                  next_);
      cc.dispatch(relax, ferry::Range(cur_.size()), next_,
                  cur_);
    }
  }
  FERRY_COMPUTE void runWithHelper(ferry::ComputeContext &cc) {
    sweep(cc, cur_, next_);
    cur_[3] += 100.0f;
    sweep(cc, cur_, next_);
    bump();
    sweep(cc, cur_, next_);
  }
  void print() const {
    printBuffer("cur", cur_);
    printBuffer("next", next_);
  }

private:
  void bump() { cur_[3] += 1000.0f; }
  ferry::Buffer<float> cur_, next_;
};

int main() {
  Solver solver(64);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { solver.run(cc, 3); });
  solver.print();
  acc.compute([&](ferry::ComputeContext &cc) { solver.runWithHelper(cc); });
  solver.print();
}
