// Issue 33, findings 5 and 6: private buffer members that only compute code
// names are never copied home and stay on the device between computes.
// C++ access control closes the world: only the class's own members name
// them, and Ferry sees all of their bodies here.
//   Renderer: `weights_` is written by the constructor and read by the
//   per-frame kernel only: it goes to the device once, not once a frame (its
//   twin with main's local buffers keeps them there too: keep_life_frames).
//   `frame_` is read by a public host member, so it comes home each frame.
//   Model: `flux_` and `tend_` are scratch that one kernel writes and the
//   next reads, within a step; only `state_` is read outside computes. The
//   lambda steps the model several times and is planned itself, so it
//   cannot name the members: its exit's safety net brings `state_` home and
//   leaves the kept scratch on the device.
//
// By hand (Renderer: 1024 floats, 4096 B each; Model: 256 floats, 1024 B):
//   5 frames: weights_ in once (1, 4096 B); frame_ overwritten by the kernel
//     each frame (no copy in), home each frame (5, 20480 B).
//   Model, 2 computes of 3 steps: state_ in once (1, 1024 B): the host only
//     reads it between them, through `state() const`, so the exits keep its
//     device copy (`cc.keepDeviceCopy`); flux_ and tend_ are overwritten
//     before they are read: never copied in, never home. The net at each
//     exit: state_ home (2, 2048 B).
//   In 2 (5120 B), out 7 (22528 B), 2 of them by the net (2048 B).
//   Dispatches 5 + 2 x 3 x 3 = 23.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 5120
// ferry-test: from_device 7 from_device_bytes 22528
// ferry-test: unnamed_from_device 2 unnamed_from_device_bytes 2048
// ferry-test: dispatches 23
#include "Print.h"

FERRY_KERNEL void shade(ferry::KernelContext kc, const float *weights,
                        float *frame, float t) {
  frame[kc.x] = weights[kc.x] * t + static_cast<float>(kc.x % 3);
}

FERRY_KERNEL void fluxes(ferry::KernelContext kc, const float *state,
                         float *flux) {
  flux[kc.x] = 0.5f * (state[(kc.x + 1) % kc.maxX] - state[kc.x]);
}

FERRY_KERNEL void tendency(ferry::KernelContext kc, const float *flux,
                           float *tend) {
  tend[kc.x] = flux[kc.x] - flux[(kc.x + kc.maxX - 1) % kc.maxX];
}

FERRY_KERNEL void advance(ferry::KernelContext kc, float *state,
                          const float *tend, float dt) {
  state[kc.x] += dt * tend[kc.x];
}

class Renderer {
public:
  explicit Renderer(int n)
      : weights_(static_cast<std::size_t>(n)),
        frame_(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i)
      weights_[static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(i % 13);
  }
  FERRY_COMPUTE void render(ferry::ComputeContext &cc, float t) {
    cc.dispatch(shade, ferry::Range(frame_.size()), weights_, frame_, t);
  }
  const ferry::Buffer<float> &frame() const { return frame_; }

private:
  ferry::Buffer<float> weights_;
  ferry::Buffer<float> frame_;
};

class Model {
public:
  explicit Model(int n)
      : state_(static_cast<std::size_t>(n)), flux_(static_cast<std::size_t>(n)),
        tend_(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i)
      state_[static_cast<std::size_t>(i)] = static_cast<float>((i * 7) % 11);
  }
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt) {
    cc.dispatch(fluxes, ferry::Range(state_.size()), state_, flux_);
    cc.dispatch(tendency, ferry::Range(state_.size()), flux_, tend_);
    cc.dispatch(advance, ferry::Range(state_.size()), state_, tend_, dt);
  }
  const ferry::Buffer<float> &state() const { return state_; }

private:
  ferry::Buffer<float> state_;
  ferry::Buffer<float> flux_;
  ferry::Buffer<float> tend_;
};

int main() {
  Renderer renderer(1024);
  ferry::Accelerator acc;
  for (int f = 0; f < 5; ++f) {
    acc.compute([&](ferry::ComputeContext &cc) {
      renderer.render(cc, static_cast<float>(f));
    });
    printBuffer("frame", renderer.frame());
  }
  Model model(256);
  for (int c = 0; c < 2; ++c) {
    acc.compute([&](ferry::ComputeContext &cc) {
      for (int s = 0; s < 3; ++s)
        model.step(cc, 0.25f);
    });
    printBuffer("state", model.state());
  }
}
