// A body that owns its positions privately; its time step is a member
// compute function and `nudge` a host member, both defined in body.cpp,
// not in the file whose plain helper calls them (main.cpp).
#pragma once
#include <ferry/ferry.hpp>

class Body {
public:
  Body(int n, float start);
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, float dt);
  /// Adds `v` to one position on the host.
  void nudge(int i, float v);
  double sum() const {
    double s = 0;
    for (float p : pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};
