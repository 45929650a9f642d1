// The reverse-in-group race (issue 31): each work-item stores its element
// of a tile and reads another one, which a different work-item of its group
// stores, with no kc.barrier() between. The indices have coefficients of any
// sign (AffineIndex), compared at the dispatch's group size.
#include <ferry/ferry.hpp>

FERRY_KERNEL void reverse(ferry::KernelContext kc, float *v) {
  ferry::Local<float, 64> s;
  s[kc.localX] = v[kc.x];
  v[kc.x] = s[63 - kc.localX];
}

// Mirrored by the group size: a race at any size of two or more.
FERRY_KERNEL void mirror(ferry::KernelContext kc, float *v) {
  ferry::Local<float, 64> s;
  int lx = kc.localX;
  s[lx] = v[kc.x];
  v[kc.x] = s[kc.localSizeX - 1 - lx];
}

// Every item writes an even element; item 2 reads what item 1 wrote.
FERRY_KERNEL void evens(ferry::KernelContext kc, const float *in,
                        float *out) {
  ferry::Local<float, 128> s;
  s[2 * kc.localX] = in[kc.x];
  out[kc.x] = s[kc.localX];
}

// A 16 x 16 tile transposed in local memory without the barrier.
FERRY_KERNEL void transpose(ferry::KernelContext kc, const float *in,
                            float *out, int n) {
  ferry::Local<float, 256> tile;
  tile[kc.localY * 16 + kc.localX] = in[kc.y * n + kc.x];
  out[(kc.groupX * 16 + kc.localY) * n + kc.groupY * 16 + kc.localX] =
      tile[kc.localX * 16 + kc.localY];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &v,
                       ferry::Buffer<float> &out, int n) {
  cc.dispatch(reverse, ferry::Range(v.size()).local(64), v);
  cc.dispatch(mirror, ferry::Range(v.size()).local(64), v);
  cc.dispatch(evens, ferry::Range(v.size()).local(64), v, out);
  cc.dispatch(transpose, ferry::Range(n, n).local(16, 16), v, out, n);
}
// CHECK: 10:13: warning: data race: a work-item reads `s[63 - kc.localX]`, an element of 's' another work-item of its group writes, with no kc.barrier() between
// CHECK-NOTE: 9:3: note: the other work-item's write: `s[kc.localX] = v[kc.x]`
// CHECK: 18:13: warning: data race: a work-item reads `s[kc.localSizeX - 1 - lx]`
// CHECK-NOTE: 17:3: note: the other work-item's write: `s[lx] = v[kc.x]`
// CHECK: 26:15: warning: data race: a work-item reads `s[kc.localX]`
// CHECK-NOTE: 25:3: note: the other work-item's write: `s[2 * kc.localX] = in[kc.x]`
// CHECK: 35:7: warning: data race: a work-item reads `tile[kc.localX * 16 + kc.localY]`
// CHECK-NOTE: 33:3: note: the other work-item's write: `tile[kc.localY * 16 + kc.localX] = in[kc.y * n + kc.x]`
