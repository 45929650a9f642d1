#pragma once
// What solver.cpp, another Ferry source of the target, offers main.cpp.
#include <ferry/ferry.hpp>

// Dispatches: planned like a callee in main.cpp's own file.
void step(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
          ferry::Buffer<float> &b);
// Host helpers: main.cpp's plan uses what their summaries say they do.
void ramp(ferry::Buffer<float> &a);              // writes a (every element)
double total(ferry::Buffer<float> &b);           // reads b, through a non-const &
void bump(ferry::Buffer<float> &b, float by);    // reads and writes b
