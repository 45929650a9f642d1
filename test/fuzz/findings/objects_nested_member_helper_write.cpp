// Fuzz finding: seed nest33b, program p39 (test/fuzz, form `nested`), reduced
// by hand. planned mismatch: a plain host helper given the object by
// reference (`poke(o, v)`) calls a host member that writes a member of a
// member (`grid_.next[k]`) between two steps; the call's arguments were
// followed to the object's direct buffer members only, so the write was
// lost and the next kernel read the old element. Reference prints
// `[p0] next 4 cur 46`; planned printed `[p0] next 4 cur 6` before the fix.
// Reproduce: build it with ferry_target_sources and as the reference execution; run both with FERRY_DEVICE=cpu FERRY_POLICY=<policy>.
// ---- program p0
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void p0_twice(ferry::KernelContext kc, int *cur, const int *next) {
  cur[kc.x] = next[kc.x] * 2;
}

class p0_Sim {
 public:
  struct Grid {
    ferry::Buffer<int> cur, next;
  } grid_;
  p0_Sim() : grid_{ferry::Buffer<int>(8, 1), ferry::Buffer<int>(8, 3)} {}
  FERRY_COMPUTE void p0_run(ferry::ComputeContext &cc) {
    cc.dispatch(p0_twice, ferry::Range(8), grid_.cur, grid_.next);
  }
  void bump(int v) { grid_.next[2] += v; }
};

static void p0_poke(p0_Sim &o, int v) { o.bump(v); }

int main() {
  ferry::Accelerator acc;
  p0_Sim st;
  acc.compute([&](ferry::ComputeContext &cc) {
    st.p0_run(cc);
    p0_poke(st, 20);
    st.p0_run(cc);
  });
  std::printf("[p0] next %d cur %d\n", st.grid_.next[0] + 1, st.grid_.cur[2]);
  return 0;
}
