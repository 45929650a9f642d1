// Issue 31: ferry::atomicAdd and atomicSub on float and double (an
// extension). OpenCL C 1.2 has integer atomics only; the emitted kernels
// build the floating ones on compare-and-swap of the element's bits
// (atomic_cmpxchg for float, atom_cmpxchg of cl_khr_int64_base_atomics for
// double), on local memory and on buffers alike. A `double` total of a
// buffer: each group sums its part in a local tree and adds it to the
// total with one atomic; float bins: each work-item adds into its group's
// local bins, and the group adds those to the buffer's. Every value is a
// small multiple of a power of two, so every order of the additions gives
// the same sums and the program prints what its reference execution does.
//
// By hand (`data` 4096 doubles = 32768 B, `samples` 1024 floats = 4096 B,
// `total` 1 double, `bins` 8 floats = 32 B; 2 dispatches):
//   data and samples are written by the host and only read by the kernels:
//   one copy in each (32768 + 4096 B), never home.
//   total and bins are made holding zeros and then only changed by the
//   kernels' atomics, which read them too: each copied in as a fill of its
//   initial value (8 + 32 B) and home once for the print (8 + 32 B).
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 36904 fills 2 fill_bytes 40
// ferry-test: from_device 2 from_device_bytes 40 dispatches 2
#include <ferry/ferry.hpp>

#include <cstdio>

constexpr int kGroup = 64;
constexpr int kBins = 8;

FERRY_KERNEL void totalOf(ferry::KernelContext kc, const double *in,
                          double *total) {
  ferry::Local<double, kGroup> tree;
  tree[kc.localX] = in[kc.x];
  kc.barrier();
  for (int step = kGroup / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      tree[kc.localX] += tree[kc.localX + step];
    kc.barrier();
  }
  if (kc.localX == 0)
    ferry::atomicAdd(&total[0], tree[0]);
}

FERRY_KERNEL void binSums(ferry::KernelContext kc, const float *samples,
                          float *bins) {
  ferry::Local<float, kBins> local;
  if (kc.localX < kBins)
    local[kc.localX] = 0.0f;
  kc.barrier();
  ferry::atomicAdd(&local[kc.x % kBins], samples[kc.x]);
  kc.barrier();
  if (kc.localX < kBins)
    ferry::atomicAdd(&bins[kc.localX], local[kc.localX]);
  if (kc.localX == 0)
    ferry::atomicSub(&bins[0], 0.25f);
}

FERRY_COMPUTE void sums(ferry::ComputeContext &cc,
                        const ferry::Buffer<double> &data,
                        ferry::Buffer<double> &total,
                        const ferry::Buffer<float> &samples,
                        ferry::Buffer<float> &bins) {
  cc.dispatch(totalOf, ferry::Range(data.size()).local(kGroup), data, total);
  cc.dispatch(binSums, ferry::Range(samples.size()).local(kGroup), samples,
              bins);
}

int main() {
  ferry::Buffer<double> data(4096), total(1, 0.0);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<double>(i % 17) * 0.5;
  ferry::Buffer<float> samples(1024), bins(kBins, 0.0f);
  for (std::size_t i = 0; i < samples.size(); ++i)
    samples[i] = static_cast<float>(i % 5) * 0.25f;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    sums(cc, data, total, samples, bins);
  });
  std::printf("total %.2f\n", total[0]);
  for (int b = 0; b < kBins; ++b)
    std::printf("bin %d: %.2f\n", b, static_cast<double>(bins[b]));
}
