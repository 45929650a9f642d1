// Issue 33, shapes the access paths stop at, planned soundly through the
// run-time safety net: a private `std::vector<Grid>` member, whose grids a
// member compute function reaches by index and through a reference bound
// to an element (`Grid &g = levels_[l]`), and a reference member
// (`Grid &g_`), which could be rebound to another grid, so no path goes
// through it. Neither has a name the exits can spell: each member compute
// function's exit brings home what the device holds newer of every float
// buffer (`fromDeviceAllOf<float>`), piece by piece, and nothing of it is
// kept between computes (a container's elements and a buffer behind a
// reference are no private member's paths).
//
// By hand (levels of 64, 32, 16 floats; `shared` 32 floats), per round:
//   smooth: each level's cur is read by a kernel: in (3; round 1 fills,
//     448 B); next is overwritten (wo). Then level 0: the host adds to
//     cur[1]: that element home (4 B, named) and back in (4 B) before the
//     next kernel, which overwrites next. The exit's net: level 0's cur in
//     2 pieces (all but element 1, 252 B), its next (256 B), levels 1 and
//     2's cur and next (256 B, 128 B): 7 copies, 892 B.
//   step: shared.cur in (round 1 a fill, 128 B); the host adds to
//     shared.next[2] between the kernels: 4 B home, 4 B in. The exit's
//     net: shared.next in 2 pieces around element 2 (124 B), shared.cur
//     (128 B): 3 copies, 252 B.
//   Per round in 6 (584 B), out 12 (1152 B), 10 of them (1144 B) by the
//   net. Two rounds: in 12 (1168 B), fills 4 (576 B) in round 1; out 24
//   (2304 B), 20 by the net (2288 B). Dispatches 2 x (3 x 2 + 1 + 2) = 18.
// ferry-test: golden
// ferry-test: to_device 12 to_device_bytes 1168 fills 4 fill_bytes 576
// ferry-test: from_device 24 from_device_bytes 2304
// ferry-test: unnamed_from_device 20 unnamed_from_device_bytes 2288
// ferry-test: dispatches 18
#include <ferry/ferry.hpp>
#include <cstdio>
#include <vector>
FERRY_KERNEL void relax(ferry::KernelContext kc, const float *cur, float *next) {
  next[kc.x] = 0.5f * cur[kc.x] + 0.25f * cur[(kc.x + 1) % kc.maxX];
}
struct Grid {
  explicit Grid(int n) : cur(static_cast<std::size_t>(n), 1.0f), next(static_cast<std::size_t>(n)) {}
  ferry::Buffer<float> cur, next;
};
class Hierarchy {
public:
  explicit Hierarchy(int levels, int n) {
    for (int l = 0; l < levels; ++l) levels_.emplace_back(n >> l);
  }
  FERRY_COMPUTE void smooth(ferry::ComputeContext &cc) {
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      Grid &g = levels_[l];
      cc.dispatch(relax, ferry::Range(g.cur.size()), g.cur, g.next);
      cc.dispatch(relax, ferry::Range(g.cur.size()), g.next, g.cur);
    }
    levels_[0].cur[1] += 10.0f;
    cc.dispatch(relax, ferry::Range(levels_[0].cur.size()), levels_[0].cur, levels_[0].next);
  }
  void print() const {
    for (const Grid &g : levels_) {
      double s = 0; for (float v : g.next) s += v;
      std::printf("%.3f %.3f\n", g.cur[1], s);
    }
  }
private:
  std::vector<Grid> levels_;
};
class Linked {
public:
  explicit Linked(Grid &g) : g_(g) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(relax, ferry::Range(g_.cur.size()), g_.cur, g_.next);
    g_.next[2] += 1.0f;
    cc.dispatch(relax, ferry::Range(g_.cur.size()), g_.next, g_.cur);
  }
private:
  Grid &g_;
};
int main() {
  Hierarchy h(3, 64);
  Grid shared(32);
  Linked link(shared);
  ferry::Accelerator acc;
  for (int r = 0; r < 2; ++r) {
    acc.compute([&](ferry::ComputeContext &cc) { h.smooth(cc); link.step(cc); });
    h.print();
    std::printf("%.3f %.3f\n", shared.cur[3], shared.next[2]);
  }
}
