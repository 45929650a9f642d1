// Issue 16, item 7: PolyBench LU's launch wrappers. Each wrapper dispatches
// under `if (k < n - 1)` and is called in a loop over k. A wrapper is called
// only from planned code, so it hands the matrix back wherever its latest
// copy is; the caller's plan goes on, and only the compute function's exit
// brings it home.
//
// By hand (8 x 8 ints = 256 B): in once before the first dispatch, out once
// at exit. 2 dispatches for each k < 7: 14.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 256 from_device 1 from_device_bytes 256
// ferry-test: dispatches 14
#include "Print.h"

FERRY_KERNEL void scaleRow(ferry::KernelContext kc, int *A, int n, int k) {
  int j = kc.x + k + 1;
  if (j < n)
    A[k * n + j] = (A[k * n + j] + A[k * n + k]) % 1009;
}

FERRY_KERNEL void updateRest(ferry::KernelContext kc, int *A, int n, int k) {
  int i = kc.y + k + 1;
  int j = kc.x + k + 1;
  if (i < n && j < n)
    A[i * n + j] = (A[i * n + j] + A[i * n + k] * A[k * n + j]) % 1009;
}

static void launchScale(ferry::ComputeContext &cc, ferry::Buffer<int> &A,
                        int n, int k) {
  if (k < n - 1)
    cc.dispatch(scaleRow, ferry::Range(n - k - 1), A, n, k);
}

static void launchUpdate(ferry::ComputeContext &cc, ferry::Buffer<int> &A,
                         int n, int k) {
  if (k < n - 1)
    cc.dispatch(updateRest, ferry::Range(n - k - 1, n - k - 1), A, n, k);
}

FERRY_COMPUTE void lu(ferry::ComputeContext &cc, ferry::Buffer<int> &A,
                      int n) {
  for (int k = 0; k < n; k++) {
    launchScale(cc, A, n, k);
    launchUpdate(cc, A, n, k);
  }
}

int main() {
  const int n = 8;
  ferry::Buffer<int> A(n * n);
  for (int i = 0; i < n * n; ++i)
    A[i] = (i * 7 + 3) % 31;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { lu(cc, A, n); });
  printBuffer("A", A);
}
