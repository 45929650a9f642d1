// A global pointer to an object that holds buffers by value (`Model
// *current`), through which host helpers write and read the model between
// computes, naming no buffer where main can see it. Found while building
// loops that leave buffers on the device: neither a pointer to such an
// object nor a reference to one counted as a place that can reach the
// buffers' elements, so a keep (`acc.keepOnDevice(m.u)`) carried a device
// copy that `nudge()` had made stale, and a block
// (`ferry::HomeAtScopeEnd`) left `m.w` on the device while `peek()` read
// it: wrong results both. Now such a place bars its element type from
// keeps and blocks, as a `float *` does.
//
// By hand (floats, 64 = 256 B each):
//   loop 1, 3 trips: each compute copies `m.u` in (the first a fill: it
//     starts uniform; then `nudge()` has written it) and home (`nudge()`
//     reads it next): in 3, out 3.
//   loop 2, 3 trips: `m.w` the same way (the first a fill); `peek()` only
//     reads it, so a keep would be sound, but Ferry judges such places per
//     element type, and a `Model *` may be written through anywhere: in 3,
//     out 3 (each compute brings it home for `peek()`).
// In 6 (1536 B), 2 of them fills (512 B); out 6 (1536 B); dispatches 6.
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 1536 fills 2 fill_bytes 512
// ferry-test: from_device 6 from_device_bytes 1536
// ferry-test: dispatches 6
#include "Print.h"

struct Model {
  ferry::Buffer<float> u;
  ferry::Buffer<float> w;
};

FERRY_KERNEL void grow(ferry::KernelContext kc, float *v) {
  v[kc.x] = v[kc.x] * 2.0f + 1.0f;
}

FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(grow, ferry::Range(v.size()), v);
}

static Model *current = nullptr;

static void nudge() { current->u[0] += 10.0f; }

static float peek() { return current->w[1]; }

int main() {
  Model m{ferry::Buffer<float>(64, 1.0f), ferry::Buffer<float>(64, 2.0f)};
  current = &m;
  ferry::Accelerator acc;
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, m.u); });
    nudge();
  }
  float seen = 0.0f;
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { step(cc, m.w); });
    seen += peek();
  }
  std::printf("seen %.1f\n", seen);
  printBuffer("u", m.u);
  printBuffer("w", m.w);
  return 0;
}
