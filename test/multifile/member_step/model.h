// A model class that owns its state and two scratch fields privately; its
// time step is a member compute function defined in model.cpp, not in the
// file with the time loop (main.cpp).
#pragma once
#include <ferry/ferry.hpp>

class Model {
public:
  explicit Model(int n);
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt);
  const ferry::Buffer<float> &state() const { return state_; }

private:
  ferry::Buffer<float> state_;
  ferry::Buffer<float> flux_;
  ferry::Buffer<float> tend_;
};
