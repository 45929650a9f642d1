// Issue 31: vector types (an extension). ferry::float4, int4, double2 and
// kin are OpenCL C's vectors on the device and structs of the same size and
// alignment on the host: a buffer of structs holding float4s, a buffer of
// int4s and one of double2s keep one layout on both sides. Covered:
// constructors (components and splat) as vector literals, + - * / % & | ^
// and compound assignment infix (the integer ones with a scalar too),
// unary minus, a scalar applied to each component, .x access, dot, length,
// normalize, vload4 and vstore4 on a float buffer. Every value is exact
// or printed rounded well away from a tie, so the program prints what its
// reference execution does.
//
// By hand (`ps` 256 Particles of 32 B = 8192 B, `xyzw` 512 floats = 2048 B,
// `len` 128 floats = 512 B, `a` and `b` 64 int4s = 1024 B each, `d` 32
// double2s = 512 B; 6 dispatches):
//   ps and d are written by the host, then read and written by kernels and
//   printed: in once and home once each (8192 + 512 B each way).
//   xyzw is written by the host, read by vload4 and written by vstore4,
//   then printed: in once and home once (2048 B each way).
//   a is written by the host and only read: in once (1024 B).
//   len and b are written whole by their kernels (one element per
//   work-item) and printed: home once each (512 + 1024 B), never in.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 11776
// ferry-test: from_device 5 from_device_bytes 12288 dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>

struct Particle {
  ferry::float4 pos;
  ferry::float4 vel;
};

FERRY_KERNEL void advance(ferry::KernelContext kc, Particle *ps, float dt) {
  Particle p = ps[kc.x];
  p.pos += p.vel * dt;
  p.vel = p.vel * 0.5f - ferry::float4(0.0f, 1.0f, 0.0f, 0.0f);
  ps[kc.x] = p;
}

FERRY_KERNEL void lengths(ferry::KernelContext kc, float *xyzw, float *len) {
  const ferry::float4 v = ferry::vload4(kc.x, xyzw);
  len[kc.x] = ferry::length(v) + ferry::dot(v, ferry::float4(1.0f));
  ferry::vstore4(-v * 2.0f, kc.x, xyzw);
}

FERRY_KERNEL void integers(ferry::KernelContext kc, const ferry::int4 *a,
                           ferry::int4 *b) {
  ferry::int4 v = (a[kc.x] * 3 + ferry::int4(1, 2, 3, 4)) % ferry::int4(7);
  // The integer operators with a scalar either way round and compound
  // (the fuzz generator's vector kernels found them missing on the host).
  v = (v ^ 5) | 8;
  v %= 11;
  v &= ferry::int4(0xF);
  b[kc.x] = (3 & (v ^ ferry::int4(2))) | v;
}

FERRY_KERNEL void doubles(ferry::KernelContext kc, ferry::double2 *d) {
  ferry::double2 v = d[kc.x];
  v.x = v.x * 2.0;
  d[kc.x] = ferry::normalize(v) * 5.0 + ferry::double2(kc.x, 0.0);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<Particle> &ps,
                       ferry::Buffer<float> &xyzw, ferry::Buffer<float> &len,
                       const ferry::Buffer<ferry::int4> &a,
                       ferry::Buffer<ferry::int4> &b,
                       ferry::Buffer<ferry::double2> &d) {
  for (int step = 0; step < 3; ++step)
    cc.dispatch(advance, ferry::Range(ps.size()), ps, 0.5f);
  cc.dispatch(lengths, ferry::Range(len.size()), xyzw, len);
  cc.dispatch(integers, ferry::Range(b.size()), a, b);
  cc.dispatch(doubles, ferry::Range(d.size()), d);
}

int main() {
  ferry::Buffer<Particle> ps(256);
  for (int i = 0; i < 256; ++i) {
    ps[i].pos = ferry::float4(float(i), 0.0f, 1.0f, 0.0f);
    ps[i].vel = ferry::float4(2.0f, 4.0f, float(i % 8), 0.0f);
  }
  ferry::Buffer<float> xyzw(4 * 128), len(128);
  for (int i = 0; i < 128; ++i) {
    xyzw[4 * i] = 3.0f * float(i % 5);
    xyzw[4 * i + 1] = 4.0f * float(i % 5);
    xyzw[4 * i + 2] = 0.0f;
    xyzw[4 * i + 3] = 0.0f;
  }
  ferry::Buffer<ferry::int4> a(64), b(64);
  for (int i = 0; i < 64; ++i)
    a[i] = ferry::int4(i, i + 1, -i, 2 * i);
  ferry::Buffer<ferry::double2> d(32);
  for (int i = 0; i < 32; ++i)
    d[i] = ferry::double2(1.5, 4.0);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, ps, xyzw, len, a, b, d); });
  double sumPos = 0, sumVel = 0, sumLen = 0, sumXyzw = 0, sumD = 0;
  long sumB = 0;
  for (int i = 0; i < 256; ++i) {
    sumPos += ps[i].pos.x + ps[i].pos.y + ps[i].pos.z + ps[i].pos.w;
    sumVel += ps[i].vel.x + ps[i].vel.y + ps[i].vel.z;
  }
  for (int i = 0; i < 128; ++i)
    sumLen += len[i];
  for (float v : xyzw)
    sumXyzw += v;
  for (int i = 0; i < 64; ++i)
    sumB += b[i].x + 10 * b[i].y + 100 * b[i].z + 1000 * b[i].w;
  for (int i = 0; i < 32; ++i)
    sumD += d[i].x + d[i].y;
  std::printf("particles %.3f %.3f\n", sumPos, sumVel);
  std::printf("lengths %.3f, stored %.3f\n", sumLen, sumXyzw);
  std::printf("integers %ld, doubles %.6f\n", sumB, sumD);
  std::printf("sizes %zu %zu\n", sizeof(Particle), sizeof(ferry::double2));
}
