// The compute function: calls into b.cpp, planned from b's summary.
#include <ferry/ferry.hpp>

void step(ferry::ComputeContext &cc, ferry::Buffer<int> &v);
void show(ferry::Buffer<int> &v);

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &v) {
  step(cc, v);
  show(v);
  step(cc, v);
}

int main() {
  ferry::Buffer<int> v{1, 2, 3};
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v); });
  show(v);
}
