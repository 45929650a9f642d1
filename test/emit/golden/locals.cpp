// Local variables of arithmetic and struct type, fixed-size local arrays
// (one and two dimensions), initialised in every C++ way, and range-based
// for over them.
#include <ferry/ferry.hpp>

struct Acc {
  int count;
  float sum;
};

FERRY_KERNEL void histogram(ferry::KernelContext kc, const int* in,
                            int* counts, float* stats, int n) {
  int bins[4] = {};
  int weights[4] = {1, 2, 3, 4};
  float grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
  Acc acc{};
  Acc total = {0, 0.5f};
  int zero{};
  float scale(1.5f);
  auto half = 0.5f;
  const int base = kc.x * n;
  for (int i = 0; i < n; ++i) {
    int v = in[base + i] & 3;
    bins[v] += weights[v];
    acc.count++;
    acc.sum += grid[v % 2][v % 3] * scale * half;
  }
  // Range-based for over local arrays, by reference and by value.
  for (int& b : bins)
    b *= 2;
  int weightSum = 0;
  for (const int w : weights) {
    weightSum += w;
  }
  total.count += acc.count + weightSum;
  total.sum += acc.sum;
  for (int b = 0; b < 4; ++b)
    counts[kc.x * 4 + b] = bins[b] + zero;
  stats[kc.x] = total.sum / total.count;
}
