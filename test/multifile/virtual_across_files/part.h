#pragma once
#include <ferry/ferry.hpp>

// The parts of a model, seen only through their base: their classes, and
// the buffers they hold, are parts.cpp's.
struct Part {
  virtual ~Part() = default;
  FERRY_COMPUTE virtual void step(ferry::ComputeContext &cc, int k) = 0;
  FERRY_COMPUTE virtual void settle(ferry::ComputeContext &cc) = 0;
  virtual void poke(int v) = 0;
  virtual double sum() const = 0;
};

Part *makeBody(float start);
Part *makeMesh(int start);
