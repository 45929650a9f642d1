// Matrix multiply: C = A * B, all n x n, row-major.
#include <ferry/ferry.hpp>

FERRY_KERNEL void matmul(ferry::KernelContext kc, const float* a,
                         const float* b, FERRY_WO float* c, int n) {
    int row = kc.y;
    int col = kc.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) {
        sum += a[row * n + k] * b[k * n + col];
    }
    c[row * n + col] = sum;
}
