// Pointer parameters of helpers take the address space of their arguments:
// a helper called with a __global and with a private pointer gets two
// versions. Reference parameters become pointers; const references are
// passed by value.
#include <ferry/ferry.hpp>

static float sum(const float* v, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

static void accumulate(float& into, const float& value) { into += value; }

static void swapInts(int& a, int& b) {
  int t = a;
  a = b;
  b = t;
}

static const float* row(const float* m, int r, int width) {
  return m + r * width;
}

FERRY_KERNEL void rows(ferry::KernelContext kc, const float* matrix,
                       float* sums, int* pairs, int width) {
  int r = kc.x;
  float local[4] = {1, 2, 3, 4};
  float total = sum(row(matrix, r, width), width);
  accumulate(total, sum(local, 4));
  accumulate(sums[r], total);
  const float* p = matrix + r * width;
  accumulate(sums[r], p[0]);
  swapInts(pairs[2 * r], pairs[2 * r + 1]);
  int a = 1, b = 2;
  swapInts(a, b);
  pairs[2 * r] += a - b;
}
