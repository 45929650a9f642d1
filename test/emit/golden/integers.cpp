// Every integer type, size_t, bool and char, with C++'s conversions kept:
// promotions, unsigned wrap-around, narrowing and sign extension.
#include <ferry/ferry.hpp>

#include <cstddef>
#include <cstdint>

FERRY_KERNEL void ints(ferry::KernelContext kc, const std::int8_t* i8,
                       const std::uint8_t* u8, const std::int16_t* i16,
                       const std::uint16_t* u16, const std::int32_t* i32,
                       const std::uint32_t* u32, const std::int64_t* i64,
                       const std::uint64_t* u64, std::int64_t* out,
                       std::uint64_t* uout, std::size_t* sizes, bool* flags,
                       char* chars) {
  std::size_t i = kc.x;
  // int8 + uint8 promote to int.
  int promoted = i8[i] + u8[i];
  // uint8 arithmetic wraps only when stored back.
  std::uint8_t wrapped = static_cast<std::uint8_t>(u8[i] + 200);
  std::int8_t narrowed = static_cast<std::int8_t>(i16[i]);
  // unsigned int arithmetic wraps modulo 2^32.
  std::uint32_t u = u32[i] * 2654435761u + 12345u;
  // mixed signed/unsigned comparison converts to unsigned.
  bool mixed = i32[i] < 0 && static_cast<std::uint32_t>(i32[i]) > 1000u;
  std::int64_t wide = static_cast<std::int64_t>(i32[i]) * 1000000;
  std::uint64_t uwide = u64[i] ^ (static_cast<std::uint64_t>(u16[i]) << 40);
  long long ll = i64[i] / 3 - (i64[i] >> 2);
  unsigned short us = static_cast<unsigned short>(u16[i] * 3);
  char c = static_cast<char>('a' + i % 26);
  std::size_t sz = sizeof(std::int64_t) * i + kc.maxX;
  out[i] = promoted + wrapped + narrowed + mixed + wide + ll + us;
  uout[i] = uwide + u;
  sizes[i] = sz;
  flags[i] = (u & 1u) != 0 || mixed;
  chars[i] = c;
}
