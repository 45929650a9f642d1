// The one-file form of main.cpp, grid.h and grid.cpp (see main.cpp for the
// counts worked out by hand, which both must meet).
// ferry-test: golden
// ferry-test: to_device 9 to_device_bytes 5136 fills 5 fill_bytes 5120
// ferry-test: from_device 19 from_device_bytes 9244
// ferry-test: dispatches 25
#include <ferry/ferry.hpp>
// Structs of buffers, held by value in public members, to two levels.

struct Grid {
  ferry::Buffer<float> cur, next;
  explicit Grid(int n) : cur(n, 0.0f), next(n, 0.0f) {}
};

struct Model {
  Grid grid;
  ferry::Buffer<float> aux;
  explicit Model(int n) : grid(n), aux(n, 1.0f) {}
};

/// cur += 1 everywhere, then next += cur.
FERRY_COMPUTE void relax(ferry::ComputeContext &cc, Grid &g);
/// relax(m.grid), then aux += next.
FERRY_COMPUTE void advance(ferry::ComputeContext &cc, Model &m);

/// Two relaxations with a host write between, inline: each Ferry source
/// that includes this header plans it, and both copies must be the same.
inline void relaxTwice(ferry::ComputeContext &cc, Grid &g) {
  relax(cc, g);
  g.cur[5] -= 1.0f;
  relax(cc, g);
}

/// relaxTwice on the model's grid.
FERRY_COMPUTE void settle(ferry::ComputeContext &cc, Model &m);

FERRY_KERNEL void inc(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }
FERRY_KERNEL void addTo(ferry::KernelContext kc, float *to, const float *from) {
  to[kc.x] += from[kc.x];
}

void relax(ferry::ComputeContext &cc, Grid &g) {
  cc.dispatch(inc, ferry::Range(g.cur.size()), g.cur);
  cc.dispatch(addTo, ferry::Range(g.next.size()), g.next, g.cur);
}

void advance(ferry::ComputeContext &cc, Model &m) {
  relax(cc, m.grid);
  cc.dispatch(addTo, ferry::Range(m.aux.size()), m.aux, m.grid.next);
}

void settle(ferry::ComputeContext &cc, Model &m) { relaxTwice(cc, m.grid); }

#include <cstdio>

static double sum(const ferry::Buffer<float> &b) {
  double s = 0;
  for (float x : b)
    s += x;
  return s;
}

int main() {
  Grid g(256);
  Model m(256);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int i = 0; i < 4; ++i) {
      relax(cc, g);
      std::printf("cur[0] %.1f\n", g.cur[0]);
    }
  });
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int i = 0; i < 3; ++i) {
      advance(cc, m);
      m.aux[2] += 100.0f;
    }
  });
  acc.compute([&](ferry::ComputeContext &cc) {
    relaxTwice(cc, g);
    settle(cc, m);
  });
  std::printf("g %.1f %.1f\n", sum(g.cur), sum(g.next));
  std::printf("m %.1f %.1f %.1f\n", sum(m.grid.cur), sum(m.grid.next), sum(m.aux));
}
