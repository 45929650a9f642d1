// The one-file form of main.cpp, model.h and model.cpp (see main.cpp for
// the counts worked out by hand, which both must meet).
// ferry-test: golden
// ferry-test: to_device 6 to_device_bytes 1408 fills 1 fill_bytes 256
// ferry-test: from_device 18 from_device_bytes 3328
// ferry-test: dispatches 18
#include <ferry/ferry.hpp>

class Model {
public:
  explicit Model(int n);
  FERRY_COMPUTE void step(ferry::ComputeContext &cc);
  double total() const;
  /// Reads `u_[0]` and `b[1]` (through a reference that is not const).
  double mix(ferry::Buffer<float> &b) const;
  void perturb();

private:
  ferry::Buffer<float> u_, v_, flux_;
};

struct Grid {
  explicit Grid(int n);
  ferry::Buffer<float> a, b;
};

FERRY_COMPUTE void smooth(ferry::ComputeContext &cc, Grid &g);

/// A host function of model.cpp: reads the grid's `a` only.
double gridSum(const Grid &g);

FERRY_KERNEL void fluxes(ferry::KernelContext kc, const float *u, float *flux, int n) {
  int r = kc.x + 1 < n ? kc.x + 1 : kc.x;
  flux[kc.x] = 0.25f * (u[r] - u[kc.x]);
}

FERRY_KERNEL void update(ferry::KernelContext kc, float *u, float *v, const float *flux) {
  v[kc.x] = 0.5f * v[kc.x] + flux[kc.x];
  u[kc.x] = u[kc.x] + v[kc.x];
}

FERRY_KERNEL void average(ferry::KernelContext kc, const float *a, float *b) {
  int r = kc.x + 1 < kc.maxX ? kc.x + 1 : kc.x;
  b[kc.x] = 0.5f * (a[kc.x] + a[r]);
}

FERRY_KERNEL void copyBack(ferry::KernelContext kc, float *a, const float *b) {
  a[kc.x] = b[kc.x];
}

Model::Model(int n) : u_(n, 1.0f), v_(n, 0.0f), flux_(n, 0.0f) {
  for (int i = 0; i < n; ++i)
    u_[i] = static_cast<float>(i % 5);
}

FERRY_COMPUTE void Model::step(ferry::ComputeContext &cc) {
  int n = static_cast<int>(u_.size());
  cc.dispatch(fluxes, ferry::Range(u_.size()), u_, flux_, n);
  cc.dispatch(update, ferry::Range(u_.size()), u_, v_, flux_);
}

// Every value is a sum of dyadic fractions: exact on any device.
double Model::total() const {
  double s = 0;
  for (std::size_t i = 0; i < u_.size(); ++i)
    s += u_[i] + 2.0 * v_[i];
  return s;
}

double Model::mix(ferry::Buffer<float> &b) const { return u_[0] + b[1]; }

void Model::perturb() { u_[3] += 1.0f; }

Grid::Grid(int n) : a(n, 0.0f), b(n, 0.0f) {
  for (int i = 0; i < n; ++i)
    a[i] = static_cast<float>(i % 8);
}

FERRY_COMPUTE void smooth(ferry::ComputeContext &cc, Grid &g) {
  cc.dispatch(average, ferry::Range(g.a.size()), g.a, g.b);
  cc.dispatch(copyBack, ferry::Range(g.a.size()), g.a, g.b);
}

double gridSum(const Grid &g) {
  double s = 0;
  for (std::size_t i = 0; i < g.a.size(); ++i)
    s += g.a[i];
  return s;
}

#include <cstdio>

int main() {
  Model model(64);
  Grid grid(32);
  ferry::Accelerator acc;
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) {
      model.step(cc);
      smooth(cc, grid);
    });
    std::printf("step %d: %.6f\n", s + 1, model.total());
  }
  for (int s = 0; s < 2; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { smooth(cc, grid); });
    std::printf("grid %d: %.6f %.6f %.6f\n", s + 1, gridSum(grid), model.total(),
                model.mix(grid.a));
  }
  model.perturb();
  acc.compute([&](ferry::ComputeContext &cc) { model.step(cc); });
  std::printf("after: %.6f %.6f\n", model.total(), gridSum(grid));
  return 0;
}
