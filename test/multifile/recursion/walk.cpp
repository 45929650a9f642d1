// The other half of the recursion (see walk.h).
#include "walk.h"

long long odd(ferry::Buffer<int> &b, int k) {
  if (k <= 0)
    return b[0];
  b[0] += 1;
  return b[0] + even(b, k - 1);
}

long long peek(ferry::Buffer<int> &b, int k) {
  return k <= 0 ? b[1] : b[1] + look(b, k - 1);
}
