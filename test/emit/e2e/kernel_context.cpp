#include "../golden/kernel_context.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &o1,
                       ferry::Buffer<int> &o2, ferry::Buffer<int> &o3,
                       ferry::Buffer<float> &cells, ferry::Buffer<int> &o4,
                       ferry::Buffer<int> &o5) {
  cc.dispatch(fill1, ferry::Range(37), o1);
  cc.dispatch(fill2, ferry::Range(7, 5), o2);
  cc.dispatch(fill3, ferry::Range(4, 3, 5), o3);
  cc.dispatch(Grid::clear, ferry::Range(50), cells, 0.5f);
  cc.dispatch(index2, ferry::Range(6, 4), o4);
  cc.dispatch(shifted, ferry::Range(24), o5);
}

int main() {
  ferry::Buffer<int> o1(37), o2(35), o3(60), o4(24), o5(24);
  ferry::Buffer<float> cells(50);
  std::vector<int> r1(37), r2(35), r3(60), r4(24), r5(24);
  std::vector<float> rcells(50);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, o1, o2, o3, cells, o4, o5); });
  check::host(fill1, 37, 1, 1, r1.data());
  check::host(fill2, 7, 5, 1, r2.data());
  check::host(fill3, 4, 3, 5, r3.data());
  check::host(Grid::clear, 50, 1, 1, rcells.data(), 0.5f);
  check::host(index2, 6, 4, 1, r4.data());
  check::host(shifted, 24, 1, 1, r5.data());
  check::values("fill1", o1, r1);
  check::values("fill2", o2, r2);
  check::values("fill3", o3, r3);
  check::values("clear", cells, rcells);
  check::values("index2", o4, r4);
  check::values("shifted", o5, r5);
  return check::report("kernel_context");
}
