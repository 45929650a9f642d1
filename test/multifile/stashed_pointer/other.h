#pragma once
#include <ferry/ferry.hpp>

void remember(ferry::Buffer<float> &b);
void nudge();
FERRY_COMPUTE void grow(ferry::ComputeContext &cc, ferry::Buffer<float> &a);
