// A ferry::Local handed to a helper by reference, and a printf whose format
// is not a string literal: both refused, at the construct.
#include <ferry/ferry.hpp>

#include <cstdio>

static float first(ferry::Local<float, 8>& tile) { return tile[0]; }

FERRY_KERNEL void useTile(ferry::KernelContext kc, float* out,
                          const char* format) {
  ferry::Local<float, 8> tile;
  tile[kc.localX] = 1.0f;
  kc.barrier();
  out[kc.x] = first(tile);
  std::printf(format, 1);
}

// CHECK: 7:44: error: a ferry::Local cannot be a parameter; pass 'tile.data()' (or '&tile[0]') as a pointer
// CHECK-NOTE: 14:15: note: in helper 'first', called from kernel 'useTile' at line 14
// CHECK: 15:3: error: printf in a kernel needs a string literal as its format (OpenCL C has no other strings)
