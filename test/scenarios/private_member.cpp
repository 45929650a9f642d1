// Issue 33, finding 2: main's compute lambda steps a local object whose
// buffer is private, twice. Before, the rewrite wrote
// `cc.fromDeviceIfStale(b0.pos_)` into main, and the rewritten file did not
// compile. main cannot name the member: the lambda's exit brings it home
// through the run-time state (`fromDeviceAllOf<float>`). A second object
// of a class whose buffer is public is named as before (`open.pos`), so
// its copy home is a named one, and the net finds nothing more to move.
//
// By hand (b0: 16 floats, 64 B; open: 8 ints, 32 B):
//   compute 1: b0's buffer still holds what it was made with: in as a fill
//     (1, 64 B); the second step finds it current. open.pos in (1, 32 B,
//     a fill). Exit: open.pos home by name (1, 32 B), b0's by the net (1,
//     64 B).
//   compute 2: b0's pos_ is only read outside computes (`print() const`),
//     and main only reads open.pos between the computes: both device
//     copies were kept (`cc.keepDeviceCopy(this->pos_)` at step's exit,
//     `acc.keepOnDevice(open.pos)` before the compute) and are current:
//     nothing in; out 2 (96 B), 1 of them by the net.
//   In 2 (96 B), fills 2 (96 B); out 4 (192 B), 2 by the net (128 B).
//   Dispatches 3 + 3 = 6.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 96 fills 2 fill_bytes 96
// ferry-test: from_device 4 from_device_bytes 192
// ferry-test: unnamed_from_device 2 unnamed_from_device_bytes 128
// ferry-test: dispatches 6
#include "Print.h"

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, float dt) {
  pos[kc.x] += dt * static_cast<float>(kc.x % 7);
}

FERRY_KERNEL void count(ferry::KernelContext kc, int *pos) { pos[kc.x] += kc.x; }

class Body {
public:
  Body(int n, float start) : pos_(static_cast<std::size_t>(n), start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt) {
    cc.dispatch(drift, ferry::Range(pos_.size()), pos_, dt);
  }
  void print() const { printBuffer("b0", pos_); }

private:
  ferry::Buffer<float> pos_;
};

struct Open {
  explicit Open(int n) : pos(static_cast<std::size_t>(n), 1) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(count, ferry::Range(pos.size()), pos);
  }
  ferry::Buffer<int> pos;
};

int main() {
  Body b0(16, 1.0f);
  Open open(8);
  ferry::Accelerator acc;
  for (int round = 0; round < 2; ++round) {
    acc.compute([&](ferry::ComputeContext &cc) {
      b0.step(cc, 2.0f);
      b0.step(cc, 0.5f);
      open.step(cc);
    });
    b0.print();
    printBuffer("open", open.pos);
  }
}
