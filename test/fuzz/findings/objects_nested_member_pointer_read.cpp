// Fuzz finding: seed nestB, program p59 (test/fuzz, form `nested`), reduced by hand.
// planned mismatch: a pointer (or reference) bound to a member's member,
// `ferry::Buffer<int> *p = &grid_.next;`, read on the host after a kernel wrote
// grid_.next (`p0_h(*p)`, or `(*p)[2]` directly): the rewrite emits no
// fromDeviceIfStale before the read (only the safety net's fromDeviceAllOf<int>
// at the end), so the host reads the stale element. `p0_h(grid_.next)` gets its
// copy. Reference prints `[p0] x[] 7`, planned `[p0] x[] 1`.
// Reproduce: build it with ferry_target_sources and as the reference execution; run both with FERRY_DEVICE=cpu FERRY_POLICY=<policy>.
// ---- program p0
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void p0_k(ferry::KernelContext kc, int *b0, int s0) {
  b0[kc.x] = (s0 + kc.x) & 0xFFFF;
}

static void p0_h(ferry::Buffer<int> &x) {
  std::printf("[p0] x[] %d\n", x[2]);
}

struct p0_Grid {
  ferry::Buffer<int> cur, next;
};

class p0_Sim {
 public:
  p0_Sim() : grid_{ferry::Buffer<int>(8, 1), ferry::Buffer<int>(8, 1)} {}
  FERRY_COMPUTE void p0_run(ferry::ComputeContext &cc, int n) {
    cc.dispatch(p0_k, ferry::Range(n), grid_.next, 5);
    ferry::Buffer<int> *p = &grid_.next;
    p0_h(*p);
  }
  void show() const { std::printf("[p0] next %d\n", grid_.next[2]); }

 private:
  p0_Grid grid_;
};

int main() {
  ferry::Accelerator acc;
  p0_Sim st;
  acc.compute([&](ferry::ComputeContext &cc) { st.p0_run(cc, 8); });
  st.show();
  return 0;
}
