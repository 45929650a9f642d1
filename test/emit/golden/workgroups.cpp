// Work-groups: the local and group ids, kc.barrier(), ferry::Local arrays
// (at the kernel's outermost level, in nested blocks, in helpers), local
// arrays handed to helpers as pointers, and LocalSpan parameters.
#include <ferry/ferry.hpp>

// The contract's example: a sum per work-group through local memory.
FERRY_KERNEL void partialSums(ferry::KernelContext kc, const float* in,
                              float* out) {
  ferry::Local<float, 64> scratch;
  scratch[kc.localX] = in[kc.x];
  kc.barrier();
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      scratch[kc.localX] += scratch[kc.localX + step];
    kc.barrier();
  }
  if (kc.localX == 0)
    out[kc.groupX] = scratch[0];
}

// Every id and size, in three dimensions.
FERRY_KERNEL void ids(ferry::KernelContext kc, int* out) {
  int i = (kc.z * kc.maxY + kc.y) * kc.maxX + kc.x;
  out[i] = kc.localX + 10 * kc.localY + 100 * kc.localZ +
           1000 * (kc.localSizeX + kc.localSizeY + kc.localSizeZ) +
           10000 * (kc.groupX + kc.groupY + kc.groupZ) +
           100000 * (kc.groupsX + kc.groupsY + kc.groupsZ);
}

// A local array handed to a helper as a pointer stays __local there; the
// same helper given a buffer is a second version.
static float sum(const float* v, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

// A helper that declares its own local array: each calling kernel declares
// it and passes it down.
static int groupMax(ferry::KernelContext kc, int value) {
  ferry::Local<int, 64> best;
  best[kc.localX] = value;
  kc.barrier();
  int m = best[0];
  for (int i = 1; i < kc.localSizeX; ++i)
    m = best[i] > m ? best[i] : m;
  kc.barrier();
  return m;
}

// ... and one that only calls it: the array passes through.
static int groupMaxTwice(ferry::KernelContext kc, int a, int b) {
  return groupMax(kc, a) + groupMax(kc, b);
}

FERRY_KERNEL void tiles(ferry::KernelContext kc, const float* in, float* out,
                        int* maxima) {
  ferry::Local<float, 16> tile;
  tile[kc.localX] = in[kc.x];
  kc.barrier();
  {
    // A local array in a nested block is declared at the top of the kernel.
    // (Every work-item of the group declares it, as the reference needs.)
    ferry::Local<float, 64> pair;
    if (kc.localX == 0) {
      pair[0] = sum(tile.data(), kc.localSizeX);
      pair[1] = sum(&tile[0], 2) + sum(in, 1);
      out[kc.groupX] = pair[0] + pair[1] * 0.0f + static_cast<float>(tile.size());
    }
  }
  maxima[kc.x] = groupMaxTwice(kc, kc.localX, kc.groupX);
}

// Local memory sized at dispatch.
static void reverseInto(ferry::LocalSpan<int> span, int* out, int at) {
  out[at] = span[span.size() - 1 - (at % span.size())];
}

FERRY_KERNEL void reverse(ferry::KernelContext kc, const int* in, int* out,
                          ferry::LocalSpan<int> span) {
  span[kc.localX] = in[kc.x];
  kc.barrier();
  reverseInto(span, out, kc.x);
}

// A span the kernel only indexes: its size argument goes unused.
FERRY_KERNEL void copyThrough(ferry::KernelContext kc, const float* in,
                              float* out, ferry::LocalSpan<float> buf) {
  buf[kc.localX] = in[kc.x];
  kc.barrier();
  out[kc.x] = buf[kc.localSizeX - 1 - kc.localX];
}

// Only a nested local array: the kernel's first lines are the hoisted ones.
// (A condition on the group's id is the same for the whole group, so the
// barrier under it is reached by all of it or none.)
FERRY_KERNEL void nested(ferry::KernelContext kc, int* out) {
  if (kc.groupX >= 0) {
    ferry::Local<int, 1> flag;
    if (kc.localX == 0)
      flag[0] = kc.groupX;
    kc.barrier();
    out[kc.x] = flag[0];
  }
}
