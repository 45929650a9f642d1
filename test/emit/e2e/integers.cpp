#include "../golden/integers.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc,
                       ferry::Buffer<std::int8_t> &i8,
                       ferry::Buffer<std::uint8_t> &u8,
                       ferry::Buffer<std::int16_t> &i16,
                       ferry::Buffer<std::uint16_t> &u16,
                       ferry::Buffer<std::int32_t> &i32,
                       ferry::Buffer<std::uint32_t> &u32,
                       ferry::Buffer<std::int64_t> &i64,
                       ferry::Buffer<std::uint64_t> &u64,
                       ferry::Buffer<std::int64_t> &out,
                       ferry::Buffer<std::uint64_t> &uout,
                       ferry::Buffer<std::size_t> &sizes,
                       ferry::Buffer<bool> &flags, ferry::Buffer<char> &chars,
                       int n) {
  cc.dispatch(ints, ferry::Range(n), i8, u8, i16, u16, i32, u32, i64, u64, out,
              uout, sizes, flags, chars);
}

int main() {
  const int n = 400;
  ferry::Buffer<std::int8_t> i8(n);
  ferry::Buffer<std::uint8_t> u8(n);
  ferry::Buffer<std::int16_t> i16(n);
  ferry::Buffer<std::uint16_t> u16(n);
  ferry::Buffer<std::int32_t> i32(n);
  ferry::Buffer<std::uint32_t> u32(n);
  ferry::Buffer<std::int64_t> i64(n), out(n);
  ferry::Buffer<std::uint64_t> u64(n), uout(n);
  ferry::Buffer<std::size_t> sizes(n);
  ferry::Buffer<bool> flags(n);
  ferry::Buffer<char> chars(n);
  check::fill(i8, -128, 127);
  check::fill(u8, 0, 255);
  check::fill(i16, -32768, 32767);
  check::fill(u16, 0, 65535);
  check::fill(i32, -2000000000, 2000000000);
  check::fill(u32, 0u, 4000000000u);
  check::fill(i64, -4000000000000000000LL, 4000000000000000000LL);
  for (auto &v : u64)
    v = (std::uint64_t(check::uniform(0u, 4000000000u)) << 32) ^
        check::uniform(0u, 4000000000u);
  auto r8 = check::copy(i8);
  auto ru8 = check::copy(u8);
  auto r16 = check::copy(i16);
  auto ru16 = check::copy(u16);
  auto r32 = check::copy(i32);
  auto ru32 = check::copy(u32);
  auto r64 = check::copy(i64);
  auto ru64 = check::copy(u64);
  std::vector<std::int64_t> rout(n);
  std::vector<std::uint64_t> ruout(n);
  std::vector<std::size_t> rsizes(n);
  std::vector<char> rchars(n);
  bool *rflags = new bool[n]();
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, i8, u8, i16, u16, i32, u32, i64, u64, out, uout, sizes, flags,
        chars, n);
  });
  check::host(ints, n, 1, 1, r8.data(), ru8.data(), r16.data(), ru16.data(),
              r32.data(), ru32.data(), r64.data(), ru64.data(), rout.data(),
              ruout.data(), rsizes.data(), rflags, rchars.data());
  check::values("out", out, rout);
  check::values("uout", uout, ruout);
  check::values("sizes", sizes, rsizes);
  check::values("flags", flags, std::vector<bool>(rflags, rflags + n));
  check::values("chars", chars, rchars);
  delete[] rflags;
  return check::report("integers");
}
