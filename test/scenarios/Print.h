#pragma once
// Output helpers shared by the scenarios: what they print is what the
// rewritten program must reproduce.
#include <ferry/ferry.hpp>

#include <cstdio>

template <class T> long long checksum(const ferry::Buffer<T> &b) {
  long long sum = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum = sum * 31 % 1000000007 + static_cast<long long>(b[i]);
  return sum;
}

template <class T> void printBuffer(const char *name, const ferry::Buffer<T> &b) {
  std::printf("%s:", name);
  for (std::size_t i = 0; i < b.size() && i < 12; ++i)
    std::printf(" %lld", static_cast<long long>(b[i]));
  std::printf("%s check=%lld\n", b.size() > 12 ? " ..." : "", checksum(b));
}
