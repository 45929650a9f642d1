// A body that owns its positions privately; its time step is a member
// compute function and `nudge` a host member, both defined in body.cpp.
// body.cpp also has a compute function that writes two global buffers:
// `trace`, which main can name, and a static one it cannot.
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

extern ferry::Buffer<float> trace;
/// Adds `v` to every element of `trace`, and counts the call in body.cpp's
/// static `hits`.
FERRY_COMPUTE void record(ferry::ComputeContext &cc, float v);
/// The sum of `hits` (host code of body.cpp).
int hitsTotal();
