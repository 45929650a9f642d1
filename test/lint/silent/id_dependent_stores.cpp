// Stores whose index depends on the work-item's id, however it gets there.
#include <ferry/ferry.hpp>

static void put(float *p, int i, float v) { p[i] = v; }

FERRY_KERNEL void stores(ferry::KernelContext kc, const float *in, float *out,
                         int n) {
  int i = kc.x;
  out[i] = in[i];
  for (int j = kc.x; j < n; j += kc.maxX)
    out[n + j] = in[j];
  float *row = out + 2 * n + kc.x * 4;
  for (int k = 0; k < 4; ++k)
    row[k] = 0.0f;
  int slot = 0;
  if (in[kc.x] > 0.0f)
    slot = 1;
  out[6 * n + 2 * kc.x + slot] = 1.0f;
  put(out + 7 * n, kc.x, in[kc.x]);
  int where = 0;
  while (where < kc.x)
    ++where;
  out[8 * n + where] = 1.0f;
  int found = 0;
  for (int k = 0; k < n; ++k)
    if (in[k] == kc.x) {
      found = k;
      break;
    }
  out[9 * n + found] = 1.0f;
}

// Work-items past the end leave first; the one left writes.
FERRY_KERNEL void last(ferry::KernelContext kc, const float *in, float *out,
                       int n) {
  if (kc.x != n - 1)
    return;
  out[0] = in[kc.x];
}

// Dispatched over a single work-item: nobody to race with.
FERRY_KERNEL void serial(ferry::KernelContext kc, const float *in, float *out,
                         int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i];
  out[0] = s;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &in,
                       ferry::Buffer<float> &out, int n) {
  cc.dispatch(stores, ferry::Range(n), in, out, n);
  cc.dispatch(last, ferry::Range(n), in, out, n);
  cc.dispatch(serial, ferry::Range(1), in, out, n);
}
