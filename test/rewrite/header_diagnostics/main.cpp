// A compute function defined in a header (inner.h) that the Ferry source
// includes only through another header (outer.h): Ferry rewrites a header
// only in place of the Ferry source's own #include of it, so this is an
// error at the function, in inner.h (its CHECK lines).
#include "outer.h"

int main() {
  ferry::Buffer<int> b(4);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { bump(cc, b); });
}
