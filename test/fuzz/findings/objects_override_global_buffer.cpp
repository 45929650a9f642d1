// Fuzz finding: campaign seed c52-10k, p2908 (f2900_2924) and p6871
// (f6850_6874), form `nested` with `objvirtual`; reduced by hand.
// mismatch (planned): a compute function that overrides a virtual one
// dispatches on a global buffer, and main's lambda calls it on a local
// object (`st.p0_run(cc)`). The global buffers a call reaches were gathered
// by following its callee, but a call of a virtual method counted only as
// code Ferry cannot see, whose globals went nowhere: `p0_g` was not an
// object of the lambda. The run-time net at the exit covers the element
// types the lambda's unnamed buffers have (`int` here; in the campaign's
// programs, whose buffers are all `int`, nothing was unnamed), not
// `float`: main printed `p0_g: 3.0 3.0`; the reference prints
// `p0_g: 15.0 5.0`. Scenario `globals_of_overrides`.
// Reproduce: build it with ferry_target_sources and as the reference execution; run both with FERRY_DEVICE=cpu FERRY_POLICY=<policy>.
// ---- program p0
#include <ferry/ferry.hpp>
#include <cstdio>

FERRY_KERNEL void p0_k(ferry::KernelContext kc, const int *a, float *b) {
  b[kc.x] = static_cast<float>(a[kc.x]) * 2.0f + 1.0f;
}

static ferry::Buffer<float> p0_g(16, 3.0f);

struct p0_Base {
  virtual ~p0_Base() = default;
  FERRY_COMPUTE virtual void p0_run(ferry::ComputeContext &cc) = 0;
};

class p0_Sim : public p0_Base {
 public:
  p0_Sim() : next_(16, 2) {}
  FERRY_COMPUTE void p0_run(ferry::ComputeContext &cc) override {
    cc.dispatch(p0_k, ferry::Range(16), next_, p0_g);
  }

  void set(int v) { next_[0] = v; }

 private:
  ferry::Buffer<int> next_;
};

int main() {
  ferry::Accelerator acc;
  p0_Sim st;
  acc.compute([&](ferry::ComputeContext &cc) {
    st.p0_run(cc);
    st.set(7);
    st.p0_run(cc);
  });
  std::printf("[p0] p0_g: %.1f %.1f\n", p0_g[0], p0_g[15]);
  return 0;
}
