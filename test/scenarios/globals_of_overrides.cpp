// A compute function that overrides a virtual one and dispatches on a
// global buffer that no class holds (`float` here, the classes hold `int`).
// The global buffers a call reaches were gathered by following its callee,
// but every call of a virtual method was counted only as "code Ferry
// cannot see": neither the method's own globals nor its overrides' went
// into the caller's table. Through the base (`b.run(cc)`) the guess by
// element type covers only the types the classes hold; called on a local
// object (`st.run(cc)`, which runs Sim's own method), nothing did. Both
// computes left `g` on the device, and main printed its old values
// (found by the campaign of this stop: p2908 of seed c52-10k, a global
// buffer written in an override called on a local object).
//
// By hand (next_: 28 ints, 112 B; g: 28 floats, 112 B):
//   compute 1 (through the base): the kernel reads next_ (made with one
//     value: a fill, 112 B) and writes all of g, which the exit brings home
//     (112 B). The override guess for `int` finds nothing newer.
//   compute 2 (on the object): Ferry does not keep next_ between the
//     computes (main cannot name it), so the first run fills it again
//     (112 B); set() is host code on a private member, written through the
//     run-time state: the second run sends next_ whole (112 B); the exit
//     brings g home (112 B).
//   In 3 (336 B, 2 fills of 224 B), out 2 (224 B), 3 dispatches. (A port
//   that kept next_ on the device and sent only next_[0] would send 116 B.)
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 336 fills 2 fill_bytes 224
// ferry-test: from_device 2 from_device_bytes 224
// ferry-test: dispatches 3
#include "Print.h"

FERRY_KERNEL void spread(ferry::KernelContext kc, const int *from, float *to) {
  to[kc.x] = static_cast<float>(from[kc.x]) * 2.0f + 1.0f;
}

static ferry::Buffer<float> g(28, 3.0f);

struct Stepper {
  virtual ~Stepper() = default;
  FERRY_COMPUTE virtual void run(ferry::ComputeContext &cc) = 0;
};

class Sim : public Stepper {
public:
  Sim() : next_(28, 2) {}
  FERRY_COMPUTE void run(ferry::ComputeContext &cc) override {
    cc.dispatch(spread, ferry::Range(28), next_, g);
  }
  void set(int i, int v) { next_[static_cast<std::size_t>(i)] = v; }

private:
  ferry::Buffer<int> next_;
};

int main() {
  ferry::Accelerator acc;
  Sim st;
  Stepper &b = st;
  acc.compute([&](ferry::ComputeContext &cc) { b.run(cc); });
  std::printf("through the base: %.1f %.1f\n", g[0], g[27]);
  acc.compute([&](ferry::ComputeContext &cc) {
    st.run(cc);
    st.set(0, 50);
    st.run(cc);
  });
  std::printf("on the object: %.1f %.1f\n", g[0], g[27]);
  return 0;
}
