// Issue 33, item 4: private buffer members that the host reads between
// computes keep their device copy, as a local buffer does. Access control
// closes the world: only the class's own members name a private member, and
// Ferry sees their bodies. When every one of them that runs outside a
// compute only reads the member (through const: a const method, a const
// method called on it, a const reference), nothing between computes can
// make its device copy stale. The exits still bring it home (here through
// the safety net: main cannot name private members), and
// `cc.keepDeviceCopy` carries its device copy into the next compute.
// (A program that casts const away anywhere keeps none of them:
// members_cast_away_const.cpp.)
//   Solver: `grid_` is a private struct of two buffers (a path below the
//     private member, `this->grid_.cur`); `print() const` reads both.
//     Kept: sent once.
//   The other two are written between computes, each in a way that must
//   count as a write, so their device copy must not be kept:
//   Tally: `reset()`, a non-const method, zeroes `hits_`.
//   Gauge: `raw()` hands main a non-const reference, and main writes `w_[1]`.
//   If either were kept, the second compute's kernel would run on the
//   device's old copy and print other numbers than the reference.
//
// By hand (Solver 128 floats, 512 B per buffer; Tally 256 ints, 1024 B;
// Gauge 64 floats, 256 B), two rounds of one compute each:
//   round 1: in: grid_.cur (512 B; the constructor wrote it, no fill),
//     hits_ and w_ (fills: 1024 + 256 B). grid_.next is written whole by
//     `smooth` before anything reads it: never in. Out, all by the net at
//     the lambda's exit: grid_.cur, grid_.next, w_ (float: 1280 B) and
//     hits_ (int: 1024 B).
//   round 2: in: hits_ and w_ again (1024 + 256 B; no longer fills);
//     grid_ nothing. Out as round 1.
//   In 5 (3072 B), fills 2 (1280 B); out 8 (4608 B), all by the net.
//   Dispatches per round: 2 steps x 2 + 1 + 1 = 6; 12 in all.
// ferry-test: golden
// ferry-test: to_device 5 to_device_bytes 3072 fills 2 fill_bytes 1280
// ferry-test: from_device 8 from_device_bytes 4608
// ferry-test: unnamed_from_device 8 unnamed_from_device_bytes 4608
// ferry-test: dispatches 12
#include "Print.h"

FERRY_KERNEL void smooth(ferry::KernelContext kc, const float *cur,
                         float *next) {
  next[kc.x] = 0.5f * (cur[kc.x] + cur[(kc.x + 1) % kc.maxX]);
}

FERRY_KERNEL void settle(ferry::KernelContext kc, const float *next,
                         float *cur) {
  cur[kc.x] = next[kc.x] + static_cast<float>(kc.x % 3);
}

FERRY_KERNEL void bump(ferry::KernelContext kc, int *hits) {
  hits[kc.x] += kc.x % 3 + 1;
}

FERRY_KERNEL void scaleBy(ferry::KernelContext kc, float *w, float f) {
  w[kc.x] = w[kc.x] * f + 1.0f;
}

struct Grid {
  explicit Grid(int n)
      : cur(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n)) {}
  ferry::Buffer<float> cur;
  ferry::Buffer<float> next;
};

class Solver {
public:
  explicit Solver(int n) : grid_(n) {
    for (int i = 0; i < n; ++i)
      grid_.cur[static_cast<std::size_t>(i)] = static_cast<float>(i % 9);
  }
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(smooth, ferry::Range(grid_.cur.size()), grid_.cur, grid_.next);
    cc.dispatch(settle, ferry::Range(grid_.cur.size()), grid_.next, grid_.cur);
  }
  void print() const {
    printBuffer("cur", grid_.cur);
    printBuffer("next", grid_.next);
  }

private:
  Grid grid_;
};

class Tally {
public:
  explicit Tally(int n) : hits_(static_cast<std::size_t>(n), 0) {}
  FERRY_COMPUTE void count(ferry::ComputeContext &cc) {
    cc.dispatch(bump, ferry::Range(hits_.size()), hits_);
  }
  void reset() {
    for (int &h : hits_)
      h = 0;
  }
  void print() const { printBuffer("hits", hits_); }

private:
  ferry::Buffer<int> hits_;
};

class Gauge {
public:
  explicit Gauge(int n) : w_(static_cast<std::size_t>(n), 2.0f) {}
  FERRY_COMPUTE void scale(ferry::ComputeContext &cc) {
    cc.dispatch(scaleBy, ferry::Range(w_.size()), w_, 0.5f);
  }
  ferry::Buffer<float> &raw() { return w_; }
  void print() const { printBuffer("gauge", w_); }

private:
  ferry::Buffer<float> w_;
};

int main() {
  Solver solver(128);
  Tally tally(256);
  Gauge gauge(64);
  ferry::Accelerator acc;
  for (int round = 0; round < 2; ++round) {
    acc.compute([&](ferry::ComputeContext &cc) {
      solver.step(cc);
      solver.step(cc);
      tally.count(cc);
      gauge.scale(cc);
    });
    solver.print();
    tally.print();
    gauge.print();
    tally.reset();
    gauge.raw()[1] = 7.0f;
  }
}
