// Fuzz finding: campaign seed paths-e3, 19 of the first 1000 programs
// (p8 of f0_49 and others; test/fuzz, form `objects`), reduced by hand.
// compile failure: with access paths, an object handed whole to a call
// (`drive(cc, &st)`, `poke(&st, v)`) made each of its buffers an object of
// the caller, private ones too, so main's lambda wrote
// `cc.fromDeviceIfStale(st.a_)` and `cc.hostWrites(st.a_)`: "'a_' is
// private within this context". A path the function may not spell gets no
// object; the run-time safety net covers it.
// Reproduce: build it with ferry_target_sources and as the reference execution; run both with FERRY_DEVICE=cpu FERRY_POLICY=<policy>.
// ---- program p0
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void p0_step(ferry::KernelContext kc, int *a, const int *b) {
  a[kc.x] += b[kc.x] + kc.x;
}

class p0_Body {
 public:
  explicit p0_Body(int v) : a_(8, v), b_(8, 2) {}
  FERRY_COMPUTE void p0_run(ferry::ComputeContext &cc) {
    cc.dispatch(p0_step, ferry::Range(8), a_, b_);
  }
  void bump(int v) { a_[3] += v; }
  int sum() const {
    int s = 0;
    for (int x : a_) s += x;
    return s;
  }

 private:
  ferry::Buffer<int> a_, b_;
};

FERRY_COMPUTE void p0_drive(ferry::ComputeContext &cc, p0_Body *o) {
  o->p0_run(cc);
}

static void p0_poke(p0_Body *o, int v) { o->bump(v); }

int main() {
  ferry::Accelerator acc;
  p0_Body st(1);
  acc.compute([&](ferry::ComputeContext &cc) {
    p0_drive(cc, &st);
    p0_poke(&st, 10);
    p0_drive(cc, &st);
  });
  std::printf("[p0] sum %d\n", st.sum());
  return 0;
}
