// A model class that owns its state privately and a public grid of two
// buffers; the time step is a member compute function, the grid's a free
// compute function, and the host reads them through a const member
// function and a free function: all defined in model.cpp, not in the file
// with the time loops (main.cpp).
#pragma once
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
