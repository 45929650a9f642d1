// C++23 explicit object parameters (`this Body &self`) on the host members
// a compute lambda calls between steps. Clang 19 begins such a call at the
// member's name, after its object, and the rewrite put the transfer line
// that comes before `b.poke(100.0f);` between `b.` and `poke`, and the
// transfer of a loop condition `b.sum() < 1000.0` between `b.` and `sum`:
// the rewritten file did not compile. Ferry cannot name `pos_` through
// `self` from main (it is private), so each call reads or writes the float
// buffers through the run-time state (`cc.hostReadsAllOf<float>()`,
// `cc.hostWritesAllOf<float>()`).
//
// By hand (pos_: 64 floats, 256 B):
//   Compute 1:
//   k = 0: step sends pos_ in (made with one value: a fill, 256 B); sum()
//     brings it home (the host copy and the device copy now agree).
//   k = 1: step sends nothing; sum() brings it home; poke() writes it on
//     the host.
//   k = 2: step sends it in again (256 B); sum() brings it home.
//   After the loop, poke() writes on the host, the last step sends it in
//   (256 B), and the lambda's exit brings it home.
//   Compute 2 (3 rounds): the first condition finds the host copy current;
//   the first step sends pos_ in (256 B: Ferry keeps a member's device copy
//   between computes only where it names the member, and main does not);
//   the condition after each step brings it home (3); the exit finds
//   nothing newer.
//   In 4 (1024 B, 1 fill of 256 B), out 7 (1792 B, all through the
//   run-time state), 7 dispatches. (A port that kept pos_ on the device
//   between the computes would send 768 B.)
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 1024 fills 1 fill_bytes 256
// ferry-test: from_device 7 from_device_bytes 1792
// ferry-test: unnamed_from_device 7 unnamed_from_device_bytes 1792
// ferry-test: dispatches 7
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

class Body {
public:
  Body(int n, float start) : pos_(static_cast<std::size_t>(n), start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt) {
    cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
  }
  void poke(this Body &self, float v) { self.pos_[3] += v; }
  double sum(this const Body &self) {
    double s = 0;
    for (float p : self.pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};

int main() {
  Body b(64, 1.0f);
  ferry::Accelerator acc;
  double seen = 0;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int k = 0; k < 3; ++k) {
      b.step(cc, 0.5f);
      seen += b.sum();
      if (k == 1)
        b.poke(100.0f);
    }
    b.poke(1.0f);
    b.step(cc, 0.25f);
  });
  std::printf("seen %.3f, after %.3f\n", seen, b.sum());
  int rounds = 0;
  acc.compute([&](ferry::ComputeContext &cc) {
    while (b.sum() < 1000.0) {
      b.step(cc, 1.0f);
      ++rounds;
    }
  });
  std::printf("rounds %d, after %.3f\n", rounds, b.sum());
  return 0;
}
