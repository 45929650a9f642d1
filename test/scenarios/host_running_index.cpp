// Issue 16 (OMPDart backprop): a 2-D array flattened into a buffer by a
// running index, `m = 0; for (k = 0; k <= in; k++) for (j = 0; j <= hid;
// j++) { b[m] = …; m++; }`, writes the first (in + 1) x (hid + 1) elements:
// `cc.hostWrites(b, ferry::tripCount(0, in + 1) * ferry::tripCount(0, hid +
// 1))`, and the runtime copies the device's data back first only when that
// falls short of b.size(). Also `i <= n - 1` in a plain counted loop. Where
// the index is stepped before the store, or the inner loop's bound depends on
// the outer counter, the write stays partial: copied back first.
//
// By hand (w, v, t, u: 12 floats, 48 B each, written by main's loops):
//   w: scale in (48); 3 x 4 rows written = all 12: no copy back; scale in
//     (48); `i <= n - 1` writes all 12: no copy back; scale in (48).
//   v: scale in; 2 x 4 = 8 of 12 written: copied back first (48); scale in.
//   t: scale in; stepped before its store: copied back first (48); scale in.
//   u: scale in; triangular: copied back first (48); scale in.
//   Exit: w, v, t, u out (4 x 48).
//   In 3 + 2 + 2 + 2 = 9 (432 B); out 3 + 4 = 7 (336 B); 9 dispatches.
// ferry-test: golden
// ferry-test: to_device 9 to_device_bytes 432 from_device 7 from_device_bytes 336
// ferry-test: dispatches 9
#include "Print.h"

FERRY_KERNEL void scale(ferry::KernelContext kc, float *w) { w[kc.x] = w[kc.x] * 2.0f; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &w,
                       ferry::Buffer<float> &v, ferry::Buffer<float> &t,
                       ferry::Buffer<float> &u, int rows, int cols, int n) {
  cc.dispatch(scale, ferry::Range(w.size()), w);
  int m = 0;
  for (int k = 0; k <= rows; k++) {
    for (int j = 0; j <= cols; j++) {
      w[m] = static_cast<float>(k * 10 + j);
      m++;
    }
  }
  cc.dispatch(scale, ferry::Range(w.size()), w);
  for (int i = 0; i <= n - 1; ++i)
    w[i] = w.size() - i;
  cc.dispatch(scale, ferry::Range(w.size()), w);

  cc.dispatch(scale, ferry::Range(v.size()), v);
  m = 0;
  for (int k = 0; k <= rows - 1; k++)
    for (int j = 0; j <= cols; j++) {
      v[m] = 7.0f;
      ++m;
    }
  cc.dispatch(scale, ferry::Range(v.size()), v);

  cc.dispatch(scale, ferry::Range(t.size()), t);
  m = -1;
  for (int k = 0; k <= rows; k++)
    for (int j = 0; j <= cols; j++) {
      m++;
      t[m] = 3.0f;
    }
  cc.dispatch(scale, ferry::Range(t.size()), t);

  cc.dispatch(scale, ferry::Range(u.size()), u);
  m = 0;
  for (int k = 0; k <= rows; k++)
    for (int j = 0; j <= k; j++) {
      u[m] = 5.0f;
      m += 1;
    }
  cc.dispatch(scale, ferry::Range(u.size()), u);
}

int main() {
  ferry::Buffer<float> w(12), v(12), t(12), u(12);
  for (int i = 0; i < 12; ++i)
    w[i] = v[i] = t[i] = u[i] = static_cast<float>(i);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, w, v, t, u, 2, 3, 12); });
  printBuffer("w", w);
  printBuffer("v", v);
  printBuffer("t", t);
  printBuffer("u", u);
}
