// FERRY_WO promises the kernel overwrites the whole buffer, but these
// dispatches run over only part of it: the runtime copies nothing in, so the
// rest comes back as whatever the device held.
#include <ferry/ferry.hpp>

FERRY_KERNEL void twice(ferry::KernelContext kc, const float *in,
                        FERRY_WO float *out) {
  out[kc.x] = 2.0f * in[kc.x];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                       ferry::Buffer<float> &b) {
  cc.dispatch(twice, ferry::Range(b.size() / 2), a, b);
  cc.dispatch(twice, ferry::Range(b.size() - 1), a, b);
  ferry::Buffer<float> c(1024);
  cc.dispatch(twice, ferry::Range(512), a, c);
  // Covered in full: no warning.
  cc.dispatch(twice, ferry::Range(b.size()), a, b);
  cc.dispatch(twice, ferry::Range(1024), a, c);
  cc.dispatch(twice, ferry::Range(a.size() / 2), a, b);
  a[0] = c[0] + b[0];
}
// CHECK: 13:22: warning: this dispatch of 'twice' writes only `b.size() / 2` elements of 'b', but its parameter 'out' is FERRY_WO
// CHECK-NOTE: 7:25: note: 'out' is declared FERRY_WO here
// CHECK-NOTE: 8:3: note: each work-item writes one element here
// CHECK: 14:22: warning: this dispatch of 'twice' writes only `b.size() - 1` elements of 'b'
// CHECK: 16:22: warning: this dispatch of 'twice' writes only 512 of the 1024 elements of 'c'

// Two stores, each over half: the whole buffer (no warning).
FERRY_KERNEL void halves(ferry::KernelContext kc, FERRY_WO float *out,
                         int half) {
  out[kc.x] = 0.0f;
  out[kc.x + half] = 1.0f;
}

FERRY_COMPUTE void both(ferry::ComputeContext &cc, ferry::Buffer<float> &b) {
  cc.dispatch(halves, ferry::Range(b.size() / 2), b, (int)(b.size() / 2));
}
