// A compute function in a `#pragma once` header (once.h) that another
// header (again.h) includes again after the Ferry source has: Ferry writes
// once.h's rewritten text in place of the Ferry source's #include, and
// `#pragma once` would not stop again.h's #include from bringing the
// original back, so this is an error at that #include (again.h's CHECK).
#include "once.h"
#include "again.h"

int main() {
  ferry::Buffer<int> b(4);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { twice(cc, b); });
}
