// Issue 31: compute functions that are templates, dispatching kernel
// templates chosen by their parameters (`fill<T>`, `scale<T, K>`). Each
// instantiation is planned on its own, and the rewritten source has one
// text for them all (plan/TemplateInstances.h): a line every instantiation
// plans stays as planned, a line only some plan is written guarded, and a
// kernel that differs between instantiations is named at run time through
// a table the rewriter writes before the template. Here `step<float, true>`
// fills its buffer on the device and `step<int, false>` does not (a plain
// `if`, so both instantiate both kernels), and `smooth<N>` is instantiated
// for two widths, with an `if constexpr` that only one of them keeps.
//
// By hand (`v` 16 floats = 64 B made holding 1.0, `w` 16 ints = 64 B made
// holding 1, `s` 256 floats = 1024 B written by the host; 5 dispatches):
//   v: `fill<float>` overwrites it whole before `scale` reads it, so it is
//   never copied in; home once for the print (64 B).
//   w: `step<int, false>` skips the fill, so `scale` reads the host's
//   values: in once, as a fill of its initial value (64 B), home once.
//   s: written by the host, read and written by `smooth<2>` and then
//   `smooth<4>` (each one dispatch, `smooth<4>` one more under its
//   `if constexpr`): in once (1024 B), home once (1024 B).
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 1088 fills 1 fill_bytes 64
// ferry-test: from_device 3 from_device_bytes 1152 dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>

template <class T>
FERRY_KERNEL void fill(ferry::KernelContext kc, T *v) {
  v[kc.x] = T(kc.x);
}

template <class T, int K>
FERRY_KERNEL void scale(ferry::KernelContext kc, T *v) {
  v[kc.x] *= T(K);
}

template <int N>
FERRY_KERNEL void blur(ferry::KernelContext kc, float *s) {
  if (kc.x % N == 0)
    s[kc.x] += 1.0f / float(N);
}

template <class T, bool Fill>
FERRY_COMPUTE void step(ferry::ComputeContext &cc, ferry::Buffer<T> &v) {
  if (Fill)
    cc.dispatch(fill<T>, ferry::Range(v.size()), v);
  cc.dispatch(scale<T, 2>, ferry::Range(v.size()), v);
}

template <int N>
FERRY_COMPUTE void smooth(ferry::ComputeContext &cc, ferry::Buffer<float> &s) {
  cc.dispatch(blur<N>, ferry::Range(s.size()), s);
  if constexpr (N > 2)
    cc.dispatch(blur<N + 1>, ferry::Range(s.size()), s);
}

int main() {
  ferry::Buffer<float> v(16, 1.0f), s(256);
  ferry::Buffer<int> w(16, 1);
  for (std::size_t i = 0; i < s.size(); ++i)
    s[i] = static_cast<float>(i % 3);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    step<float, true>(cc, v);
    step<int, false>(cc, w);
    smooth<2>(cc, s);
    smooth<4>(cc, s);
  });
  double sumS = 0;
  for (float x : s)
    sumS += x;
  std::printf("v[3] %.1f w[3] %d s %.4f\n", v[3], w[3], sumS);
}
