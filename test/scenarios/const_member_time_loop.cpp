// A time loop in a const member function: a filter class applies its
// weights to a frame the caller owns, frame after frame, and `render` is
// const because it changes nothing of the filter. Its computes can only
// read the members, so they are followed from `this` as a non-const member
// function's are (member_time_loop): forgotten at the start of `render`,
// then kept. Before const member functions were followed, each frame sent
// the weights again.
//
// By hand (floats, 64 = 256 B each):
//   filter.render(acc, frame, 4): `render` forgets `this->weights_`,
//     `this->bias_` and `frame`. Frame 1 copies all three in (3, 768 B;
//     `bias_` and `frame` start uniform: fills). Frames 2 to 4 keep them:
//     nothing in. Main prints `frame`, and nothing in the loop but
//     kernels uses it: it comes home once, when the loop ends (1, 256 B).
//     The members are only read: nothing of them comes home.
//   main writes `frame[0]`; filter.render(acc, frame, 2) forgets them
//     again: frame 1 copies all three in (3, 768 B; `bias_` still a fill,
//     `frame` not: main wrote it), frame 2 keeps them; out 1, 256 B.
// In 6 (1536 B), 3 of them fills (768 B); out 2 (512 B); dispatches 6
// (6 came home, 1536 B, before loops left buffers on the device).
// Before: `frame` was kept, but the weights and the bias went in at every
// frame: 14 (3584 B).
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 1536 fills 3 fill_bytes 768
// ferry-test: from_device 2 from_device_bytes 512
// ferry-test: dispatches 6
#include "Print.h"

FERRY_KERNEL void shade(ferry::KernelContext kc, const float *w,
                        const float *b, float *frame) {
  frame[kc.x] = frame[kc.x] * w[kc.x] + b[kc.x];
}

FERRY_COMPUTE void apply(ferry::ComputeContext &cc,
                         const ferry::Buffer<float> &w,
                         const ferry::Buffer<float> &b,
                         ferry::Buffer<float> &frame) {
  cc.dispatch(shade, ferry::Range(frame.size()), w, b, frame);
}

class Filter {
public:
  explicit Filter(int n)
      : weights_(static_cast<std::size_t>(n)),
        bias_(static_cast<std::size_t>(n), 0.5f) {
    for (int i = 0; i < n; ++i)
      weights_[static_cast<std::size_t>(i)] = 0.25f * static_cast<float>(i % 5);
  }
  void render(ferry::Accelerator &acc, ferry::Buffer<float> &frame,
              int frames) const {
    for (int f = 0; f < frames; ++f)
      acc.compute(
          [&](ferry::ComputeContext &cc) { apply(cc, weights_, bias_, frame); });
  }

private:
  ferry::Buffer<float> weights_;
  ferry::Buffer<float> bias_;
};

int main() {
  Filter filter(64);
  ferry::Buffer<float> frame(64, 1.0f);
  ferry::Accelerator acc;
  filter.render(acc, frame, 4);
  frame[0] = 3.0f;
  filter.render(acc, frame, 2);
  printBuffer("frame", frame);
  return 0;
}
