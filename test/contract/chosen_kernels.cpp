// Issue 31: a kernel chosen at run time (an extension). A dispatch's kernel
// may be a choice among kernels Ferry can list: the branches of `?:`, the
// elements of a const array of kernels the dispatch indexes, a const
// variable holding such a choice. Each kernel it may run is emitted; each
// buffer argument passes what every candidate does to it where they agree
// (`a` is written whole by every `scale<K>`: `wo`), else the union of their
// accesses (`b`: `scale<2>` overwrites it, `addOne` reads it: `rw`); the
// launch finds the OpenCL name of the kernel chosen in a table the rewriter
// writes before the compute function. Written once, however many
// instantiations of a kernel template the program chooses from.
//
// By hand (`in`, `a` and `b` 64 floats = 256 B each; 3 calls of `run`, 2
// dispatches each):
//   in is made holding 1.5 and only read: in once, as a fill (256 B); the
//   device copy serves every later call.
//   a is written whole by each call's first dispatch whichever kernel runs:
//   never in; home once for the print (256 B).
//   b is made holding 1.0 and read by `addOne`: in once, as a fill (256 B),
//   kept on the device between the calls, home once (256 B).
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 512 fills 2 fill_bytes 512
// ferry-test: from_device 2 from_device_bytes 512 dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>

template <int K>
FERRY_KERNEL void scale(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x] * float(K);
}

FERRY_KERNEL void addOne(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] += in[kc.x];
}

using Kernel = void (*)(ferry::KernelContext, const float *, float *);
constexpr Kernel byFactor[] = {scale<1>, scale<2>, scale<4>};

FERRY_COMPUTE void run(ferry::ComputeContext &cc, const ferry::Buffer<float> &in,
                       ferry::Buffer<float> &a, ferry::Buffer<float> &b,
                       int which) {
  cc.dispatch(byFactor[which], ferry::Range(in.size()), in, a);
  const Kernel second = which > 1 ? scale<2> : addOne;
  cc.dispatch(second, ferry::Range(in.size()), in, b);
}

int main() {
  ferry::Buffer<float> in(64, 1.5f), a(64), b(64, 1.0f);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int which = 0; which < 3; ++which)
      run(cc, in, a, b, which);
  });
  std::printf("a %.2f b %.2f\n", a[5], b[5]);
}
