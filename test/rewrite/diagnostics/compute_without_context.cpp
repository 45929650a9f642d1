// A compute function receives the ComputeContext first.
#include <ferry/ferry.hpp>

FERRY_COMPUTE void run(ferry::Buffer<int> &b) { b[0] = 1; }
// CHECK: 4:20: error: compute function 'run' must take 'ferry::ComputeContext &'
