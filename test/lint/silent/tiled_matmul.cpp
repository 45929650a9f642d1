// C = A B for n x n matrices (n a multiple of 16), through 16 x 16 tiles in
// local memory: each tile is loaded, then read after a barrier, and not
// overwritten until every work-item has passed the second one.
#include <ferry/ferry.hpp>

constexpr int T = 16;

FERRY_KERNEL void matmul(ferry::KernelContext kc, const float *a,
                         const float *b, float *c, int n) {
  ferry::Local<float, T * T> as;
  ferry::Local<float, T * T> bs;
  int row = kc.y, col = kc.x;
  int ly = kc.localY, lx = kc.localX;
  float acc = 0.0f;
  for (int t = 0; t < n / T; ++t) {
    as[ly * T + lx] = a[row * n + t * T + lx];
    bs[ly * T + lx] = b[(t * T + ly) * n + col];
    kc.barrier();
    for (int k = 0; k < T; ++k)
      acc += as[ly * T + k] * bs[k * T + lx];
    kc.barrier();
  }
  c[row * n + col] = acc;
}

FERRY_COMPUTE void multiply(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                            ferry::Buffer<float> &b, ferry::Buffer<float> &c,
                            int n) {
  cc.dispatch(matmul, ferry::Range(n, n).local(T, T), a, b, c, n);
}
