// Fuzz finding: seed nestC, program p15 (test/fuzz, form `nested`, --avoid condref
// --avoid ptrpair --avoid grid), reduced by hand; not specific to `nested`.
// planned mismatch: a plain helper (not FERRY_COMPUTE) called from the compute lambda
// steps an object, calls a host member that writes its buffer (`o.bump(3)`), and steps
// it again: the rewrite emits nothing for the helper's host write (no hostWrites), so
// the second step's `cc.toDevice(next)` does not send the new element and the kernel
// reads the old one. The same steps written in the lambda, or in a FERRY_COMPUTE
// helper, are right. Reference prints `[p0] cur[2] 10`, planned `[p0] cur[2] 7`.
// Reproduce: build it with ferry_target_sources and as the reference execution; run both with FERRY_DEVICE=cpu FERRY_POLICY=<policy>.
// ---- program p0
#include <ferry/ferry.hpp>
#include <cstdio>
#include <vector>

FERRY_KERNEL void p0_set(ferry::KernelContext kc, int *b0, int s0) {
  b0[kc.x] = (s0 + kc.x) & 0xFFFF;
}
FERRY_KERNEL void p0_copy(ferry::KernelContext kc, int *b0, const int *b1) {
  b0[kc.x] = b1[kc.x];
}

class p0_Sim {
 public:
  ferry::Buffer<int> cur, next;
  p0_Sim() : cur(8, 1), next(8, 1) {}
  FERRY_COMPUTE void p0_run(ferry::ComputeContext &cc, int n) {
    cc.dispatch(p0_copy, ferry::Range(n), cur, next);
    cc.dispatch(p0_set, ferry::Range(n), next, 5);
  }
  void bump(int v) { next[2] = (next[2] + v) & 0xFFFF; }
};

static void p0_drive(ferry::ComputeContext &cc, p0_Sim &o, int n) {
  o.p0_run(cc, n);
  o.bump(3);
  o.p0_run(cc, n);
}

int main() {
  ferry::Accelerator acc;
  p0_Sim st;
  acc.compute([&](ferry::ComputeContext &cc) {
    p0_drive(cc, st, 8);
  });
  std::printf("[p0] cur[2] %d\n", st.cur[2]);
  return 0;
}
