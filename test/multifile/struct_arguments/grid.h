// Structs of buffers, held by value in public members, to two levels.
#pragma once
#include <ferry/ferry.hpp>

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
