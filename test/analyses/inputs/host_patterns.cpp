// Host patterns for `ferry analyze`'s golden output: the C++ traps of
// issue 4 in one compute function each, with helpers Ferry sees and one it
// does not. Not meant to run.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <numeric>
#include <utility>

struct Particle {
  float x, y;
};

FERRY_KERNEL void advance(ferry::KernelContext kc, FERRY_RO const Particle *in,
                          FERRY_WO Particle *out, float dt) {
  Particle p = in[kc.x];
  p.x += dt;
  out[kc.x] = p;
}

static float *slot(float *base, int i) { return base + i; }

FERRY_KERNEL void scatter(ferry::KernelContext kc, float *acc,
                          const float *weights, int n) {
  if (kc.x >= n)
    return;
  *slot(acc, kc.x) += weights[kc.x];
}

void upload(const ferry::Buffer<float> &b); // no body: read
void mangle(ferry::Buffer<float> &b);       // no body: read, written, escapes

static float total(const ferry::Buffer<float> &b) {
  return std::accumulate(b.begin(), b.end(), 0.0f);
}

static void reset(ferry::Buffer<float> &b) { std::fill(b.begin(), b.end(), 0.0f); }

FERRY_COMPUTE void traps(ferry::ComputeContext &cc, ferry::Buffer<float> &acc,
                         ferry::Buffer<float> &weights, int n) {
  reset(acc);                       // visible helper: write
  float first = weights[0];         // non-const operator[] as an rvalue: read
  weights[1] = first;               // write
  for (float w : weights)           // range-for by value: read
    first += w;
  for (float &w : weights)          // by &: read-write
    w *= 0.5f;
  const float *view = weights.data(); // const pointer: read
  first += view[2];                 // read through it
  float *raw = acc.data();          // mutable pointer kept: escape
  raw[0] = first;                   // write through it
  cc.dispatch(scatter, ferry::Range(n), acc, weights, n);
  std::printf("%f\n", total(acc));  // visible helper: read
  upload(weights);                  // invisible, const&: read
  mangle(acc);                      // invisible, &: escape
  std::copy(weights.begin(), weights.end(), acc.begin());
}

FERRY_COMPUTE void generations(ferry::ComputeContext &cc,
                               ferry::Buffer<Particle> &a,
                               ferry::Buffer<Particle> &b, int steps) {
  ferry::Buffer<Particle> spare(a.size());
  ferry::Buffer<Particle> *from = &a, *to = &b;
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(advance, ferry::Range(a.size()), *from, *to, 0.1f);
    std::swap(from, to);
    auto &shown = (s % 2 == 0) ? *from : spare;
    std::printf("%f\n", shown[0].x);
  }
  (*to)[0].y = 1.0f;
}
