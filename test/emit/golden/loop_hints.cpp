// Loop hints: Clang's `#pragma unroll`, `#pragma unroll N` and `#pragma
// nounroll`, and `#pragma GCC unroll N`, become OpenCL C's `#pragma unroll`
// before the same loop (`nounroll` and `GCC unroll 1` as `unroll 1`); a
// hint OpenCL C cannot spell (`#pragma clang loop vectorize(enable)`) and a
// statement attribute (`[[likely]]`) are left to the kernel compiler.
#include <ferry/ferry.hpp>

FERRY_KERNEL void hinted(ferry::KernelContext kc, int *v, int n) {
  int s = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    s += v[i];
#pragma unroll 4
  for (int i = 0; i < n; ++i)
    s += v[i];
#pragma nounroll
  for (int i = 0; i < n; ++i)
    s ^= v[i];
#pragma GCC unroll 1
  do {
    s >>= 1;
  } while (s > 100);
#pragma clang loop vectorize(enable)
  for (int i = 0; i < n; ++i)
    s -= v[i];
  if (s > 0) [[likely]]
    s = -s;
  v[kc.x] = s;
}
