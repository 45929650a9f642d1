// Compiled apart from global_buffers.cpp, so Ferry cannot see into it:
// it reads the global buffer through its own declaration.
#include <ferry/ferry.hpp>

extern ferry::Buffer<float> weights;

float firstWeight() { return weights[0]; }
