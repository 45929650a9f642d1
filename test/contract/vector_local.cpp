// Issue 31: local memory of vectors, `ferry::Local<ferry::float4, N>` (an
// extension). Each group of 64 work-items reverses its float4s through
// local memory, then doubles them. On the device the array is `__local
// float4 tile[64];`, aligned as its vectors need, so a kernel no longer
// declares a struct of its own and casts pointers to read local memory as
// float4 (samples/sgemm had to). On the host, ferry::Local holds them as it
// holds plain structs: no constructor runs, and a kernel reads only what it
// wrote there, as on the device.
//
// By hand (256 float4s, 4096 B each buffer, 1 dispatch):
//   `in` is written by the host and read by the kernel: in once (4096 B).
//   `out` is written whole by the kernel (one element per work-item) and
//   read by the host: home once (4096 B). It also goes in once (4096 B):
//   the planner bounds what a kernel overwrites only for a range written
//   as `Range(n)`, and this one has `.local(64)` (docs/limitations.md), so
//   the launch passes `rw(out)`.
// In 2 (8192 B), out 1 (4096 B).
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 8192
// ferry-test: from_device 1 from_device_bytes 4096 dispatches 1
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL void flip(ferry::KernelContext kc, const ferry::float4 *in,
                       ferry::float4 *out) {
  ferry::Local<ferry::float4, 64> tile;
  tile[kc.localX] = in[kc.x];
  kc.barrier();
  out[kc.x] = tile[kc.localSizeX - 1 - kc.localX] * 2.0f;
}

FERRY_COMPUTE void flipGroups(ferry::ComputeContext &cc,
                              ferry::Buffer<ferry::float4> &in,
                              ferry::Buffer<ferry::float4> &out) {
  cc.dispatch(flip, ferry::Range(out.size()).local(64), in, out);
}

int main() {
  ferry::Buffer<ferry::float4> in(256), out(256);
  for (int i = 0; i < 256; ++i)
    in[i] = ferry::float4(static_cast<float>(i), i + 0.5f,
                          static_cast<float>(-i), 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { flipGroups(cc, in, out); });
  for (int i : {0, 3, 63, 64, 200, 255})
    std::printf("out[%d] = (%g, %g, %g, %g)\n", i, out[i].x, out[i].y,
                out[i].z, out[i].w);
}
