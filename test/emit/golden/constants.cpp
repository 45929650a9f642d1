// constexpr and const globals of arithmetic type (and arrays of them), enums
// scoped and unscoped, static constexpr members.
#include <ferry/ferry.hpp>

constexpr int kWidth = 4;
const float kScale = 2.5f;
constexpr int kWeights[kWidth] = {1, 3, 3, 1};

namespace config {
constexpr unsigned kMask = 0xF0u;
}

struct Limits {
  static constexpr int kMax = 100;
};

enum Colour { Red, Green = 5, Blue };
enum class Mode : short { Add = 1, Mul = 2 };

static int apply(Mode m, int a, int b) {
  switch (m) {
  case Mode::Add:
    return a + b;
  case Mode::Mul:
    return a * b;
  }
  return 0;
}

FERRY_KERNEL void weigh(ferry::KernelContext kc, const int* in, float* out,
                        int* tags, Mode mode) {
  int i = kc.x;
  int acc = 0;
  int window[kWidth];
  for (int k = 0; k < kWidth; ++k) {
    window[k] = in[i * kWidth + k];
    acc += kWeights[k] * window[k];
  }
  if (acc > Limits::kMax)
    acc = Limits::kMax;
  out[i] = acc * kScale;
  Colour c = acc % 2 ? Green : Blue;
  tags[i] = apply(mode, c, (int)(acc & config::kMask)) + Red;
}
