// A register-tiled matrix multiply: a work-group computes a 16x16 block of
// C, staging 16x16 tiles of A and B in local memory; each work-item keeps
// a 2x2 block of C in a private array.
#include <ferry/ferry.hpp>

constexpr int kBlock = 16; // C's block per work-group, on each side
constexpr int kPer = 2;    // C's block per work-item, on each side

FERRY_KERNEL void tiledMatmul(ferry::KernelContext kc, const float* a,
                              const float* b, float* c, int n) {
  ferry::Local<float, kBlock * kBlock> ta;
  ferry::Local<float, kBlock * kBlock> tb;
  float acc[kPer][kPer] = {};
  const int row0 = kc.groupY * kBlock, col0 = kc.groupX * kBlock;
  const int lid = kc.localY * kc.localSizeX + kc.localX;
  const int threads = kc.localSizeX * kc.localSizeY;
  for (int t = 0; t < n; t += kBlock) {
    for (int e = lid; e < kBlock * kBlock; e += threads) {
      int r = e / kBlock, q = e % kBlock;
      ta[e] = a[(row0 + r) * n + t + q];
      tb[e] = b[(t + r) * n + col0 + q];
    }
    kc.barrier();
    for (int k = 0; k < kBlock; ++k) {
      float bk[kPer];
      for (int j = 0; j < kPer; ++j)
        bk[j] = tb[k * kBlock + kc.localX * kPer + j];
      for (int i = 0; i < kPer; ++i)
        for (int j = 0; j < kPer; ++j)
          acc[i][j] += ta[(kc.localY * kPer + i) * kBlock + k] * bk[j];
    }
    kc.barrier();
  }
  int i = 0;
  for (const auto& row : acc) {
    for (int j = 0; j < kPer; ++j)
      c[(row0 + kc.localY * kPer + i) * n + col0 + kc.localX * kPer + j] =
          row[j];
    ++i;
  }
}
