// The twin of class_members.cpp with the buffers as parameters: the same
// kernels, helpers and calls, each buffer passed by reference. Within each
// compute it moves exactly the bytes its twin moves (see the hand count
// there). Between the two computes main only reads `state` and `flux`,
// which here are its own buffers, so Ferry keeps them on the device
// (`acc.keepOnDevice`; the twin's private members, which only its const
// `print()` reads outside computes, are kept by `cc.keepDeviceCopy`):
// `flux`, read by total() at the end of the first compute, is still valid
// there, and the second compute does not copy it in; `state` was written
// by pin() since its last copy in, element 0 only, so that element of the
// device copy the keep carries over is stale, and it goes in again (4 B).
// In 3 (516 B), out 4 (1016 B): what the twin moves.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 516 from_device 4 from_device_bytes 1016
// ferry-test: fills 1 fill_bytes 256
// ferry-test: dispatches 8
#include "Print.h"

FERRY_KERNEL void diffuse(ferry::KernelContext kc, float *s, const float *f,
                          float k) {
  s[kc.x] = s[kc.x] + k * f[kc.x];
}

FERRY_KERNEL void relaxKernel(ferry::KernelContext kc, const float *s,
                              float *f) {
  f[kc.x] = 0.5f * f[kc.x] + 0.125f * s[kc.x];
}

static void relax(ferry::ComputeContext &cc, ferry::Buffer<float> &state,
                  ferry::Buffer<float> &flux) {
  cc.dispatch(relaxKernel, ferry::Range(flux.size()), state, flux);
}

static void pin(ferry::Buffer<float> &state) { state[0] = 0.0f; }

static float total(const ferry::Buffer<float> &flux) {
  float sum = 0.0f;
  for (float v : flux)
    sum += v;
  return sum;
}

FERRY_COMPUTE void advance(ferry::ComputeContext &cc,
                           ferry::Buffer<float> &state,
                           ferry::Buffer<float> &flux, int steps) {
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(diffuse, ferry::Range(state.size()), state, flux, 0.25f);
    relax(cc, state, flux);
  }
  pin(state);
  std::printf("total flux %.4f\n", total(flux));
}

int main() {
  ferry::Buffer<float> state(64), flux(64, 1.0f);
  for (int i = 0; i < 64; ++i)
    state[i] = static_cast<float>(i % 7);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { advance(cc, state, flux, 3); });
  printBuffer("state", state);
  printBuffer("flux", flux);
  acc.compute([&](ferry::ComputeContext &cc) { advance(cc, state, flux, 1); });
  printBuffer("state", state);
  printBuffer("flux", flux);
}
