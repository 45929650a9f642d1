// The reverse-in-group kernels of warnings/reverse_in_group.cpp and
// warnings/racing_write_affine.cpp written right: a barrier between the
// write and the read, stores that never meet.
#include <ferry/ferry.hpp>

FERRY_KERNEL void reverse(ferry::KernelContext kc, float *v) {
  ferry::Local<float, 64> s;
  s[kc.localX] = v[kc.x];
  kc.barrier();
  v[kc.x] = s[63 - kc.localX];
}

FERRY_KERNEL void mirror(ferry::KernelContext kc, float *v) {
  ferry::Local<float, 64> s;
  int lx = kc.localX;
  s[lx] = v[kc.x];
  kc.barrier();
  v[kc.x] = s[kc.localSizeX - 1 - lx];
}

FERRY_KERNEL void transpose(ferry::KernelContext kc, const float *in,
                            float *out, int n) {
  ferry::Local<float, 256> tile;
  tile[kc.localY * 16 + kc.localX] = in[kc.y * n + kc.x];
  kc.barrier();
  out[(kc.groupX * 16 + kc.localY) * n + kc.groupY * 16 + kc.localX] =
      tile[kc.localX * 16 + kc.localY];
}

// Each item's two elements, a group apart, and the odd ones read back by
// their own writers: nobody else's.
FERRY_KERNEL void ownElements(ferry::KernelContext kc, const float *in,
                              float *out) {
  ferry::Local<float, 128> s;
  s[2 * kc.localX] = in[kc.x];
  s[2 * kc.localX + 1] = -in[kc.x];
  s[2 * kc.localX] += 1.0f;
  out[kc.x] = s[2 * kc.localX + 1];
}

FERRY_KERNEL void overlap(ferry::KernelContext kc, const float *in,
                          float *out) {
  ferry::Local<float, 65> s;
  s[kc.localX] = in[kc.x];
  kc.barrier();
  s[kc.localX + 1] = 2.0f * in[kc.x];
  kc.barrier();
  out[kc.x] = s[kc.localX];
}

// One element per work-item of a 64 x 4 range.
FERRY_KERNEL void grid(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.y * 64 + kc.x] = in[kc.x];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &v,
                       ferry::Buffer<float> &out, int n) {
  cc.dispatch(reverse, ferry::Range(v.size()).local(64), v);
  cc.dispatch(mirror, ferry::Range(v.size()).local(64), v);
  cc.dispatch(transpose, ferry::Range(n, n).local(16, 16), v, out, n);
  cc.dispatch(ownElements, ferry::Range(v.size()).local(64), v, out);
  cc.dispatch(overlap, ferry::Range(v.size()).local(64), v, out);
  cc.dispatch(grid, ferry::Range(64, 4), v, out);
}
