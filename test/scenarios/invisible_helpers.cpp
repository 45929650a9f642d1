// Compiled as plain C++ into the scenario's program: Ferry never sees these
// bodies, only the declarations in invisible.cpp.
#include <ferry/ferry.hpp>

#include <cstdio>

void inspect(const ferry::Buffer<int> &b) {
  long long sum = 0;
  for (int v : b)
    sum += v;
  std::printf("inspect: sum=%lld\n", sum);
}

void mutate(ferry::Buffer<int> &b) { b[0] += 1000; }
