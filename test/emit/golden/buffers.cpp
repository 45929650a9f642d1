// Buffer parameters as __global pointers, scalars by value (structs and bool
// included).
#include <ferry/ferry.hpp>

#include <cstdint>

struct Pair {
  int key;
  float value;
};

FERRY_KERNEL void scatter(ferry::KernelContext kc, const Pair* in,
                          FERRY_WO float* values, FERRY_RW int* keys,
                          Pair bias, bool negate, unsigned char tag,
                          std::int64_t offset) {
  int i = kc.x;
  float v = in[i].value + bias.value;
  values[i] = negate ? -v : v;
  keys[i] += in[i].key + bias.key + tag + (int)(offset % 7);
}

FERRY_KERNEL void copyBytes(ferry::KernelContext kc, const std::uint8_t* src,
                            std::uint8_t* dst, unsigned n) {
  unsigned i = kc.x;
  if (i < n)
    dst[i] = src[n - 1 - i];
}
