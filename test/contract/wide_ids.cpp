// Issue 31: 64-bit ids and sizes (an extension). kc.x64, kc.maxX64 and
// their kin are `long long` on the host and OpenCL C's `long` on the device
// (get_global_id unconverted), for ranges and buffers past 2^31 elements;
// kc.x stays `int`, so only a kernel that names the wide ones pays for
// 64-bit arithmetic. The analyses read kc.x64 as kc.x: a store at
// `ids[kc.x64]` or at `out[kc.y64 * kc.maxX64 + kc.x64]` covers its range
// as the int forms do, so those buffers are never copied in. (A range past
// 2^31 work-items runs in runtime.wide, on the reference execution; PoCL
// would take minutes.)
//
// By hand (`v` 5000 floats = 20000 B, `ids` and `copy` 3000 long longs =
// 24000 B each, `out` 40 x 30 ints = 4800 B; 4 dispatches):
//   v is written by the host, scaled on the device (read and written) and
//   printed: in once and home once (20000 B each way).
//   ids, out and copy are written whole by their kernels and printed: home
//   once each (24000 + 4800 + 24000 B), never in; ids stays valid on the
//   device for `shifted`, which reads it.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 20000
// ferry-test: from_device 4 from_device_bytes 72800 dispatches 4
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL void scaleAll(ferry::KernelContext kc, float *v, long long n,
                           float factor) {
  for (long long i = kc.x64; i < n; i += kc.maxX64)
    v[i] *= factor;
}

FERRY_KERNEL void fillIds(ferry::KernelContext kc, long long *ids) {
  ids[kc.x64] = kc.x64 * 3 + kc.maxX64;
}

FERRY_KERNEL void plane(ferry::KernelContext kc, int *out) {
  out[kc.y64 * kc.maxX64 + kc.x64] = static_cast<int>(kc.y64 - kc.x64);
}

// A helper given the context whole: the OpenCL struct carries the 64-bit
// fields only in a program that names them.
long long linear(ferry::KernelContext kc) {
  return kc.y64 * kc.maxX64 + kc.x64;
}

FERRY_KERNEL void shifted(ferry::KernelContext kc, const long long *ids,
                          long long *copy) {
  copy[kc.x64] = ids[kc.x64] + linear(kc);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &v,
                       ferry::Buffer<long long> &ids,
                       ferry::Buffer<int> &out,
                       ferry::Buffer<long long> &copy) {
  cc.dispatch(scaleAll, ferry::Range(256), v,
              static_cast<long long>(v.size()), 2.0f);
  cc.dispatch(fillIds, ferry::Range(ids.size()), ids);
  cc.dispatch(plane, ferry::Range(40, 30), out);
  cc.dispatch(shifted, ferry::Range(copy.size()), ids, copy);
}

int main() {
  ferry::Buffer<float> v(5000);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(i % 10);
  ferry::Buffer<long long> ids(3000);
  ferry::Buffer<int> out(40 * 30);
  ferry::Buffer<long long> copy(ids.size());
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v, ids, out, copy); });
  double sumV = 0;
  long long sumIds = 0, sumOut = 0;
  for (float x : v)
    sumV += x;
  for (long long x : ids)
    sumIds += x;
  for (int x : out)
    sumOut += x * (x + 40);
  for (long long x : copy)
    sumIds += 2 * x;
  std::printf("v %.1f ids %lld out %lld\n", sumV, sumIds, sumOut);
}
