// Recursion across files (issue 23): even() and odd(), peek() and look()
// call each other between main.cpp and walk.cpp. The composed summaries
// are a fixpoint: peek/look only read b, even/odd read and write it.
//
// By hand (16 ints = 64 B; b made with a value, so its first copy in is a
// fill):
//   dispatch 1 reads b: in (1, a fill).
//   peek(b, 3) reads b on the host: out (1); the device copy stays valid.
//   dispatch 2: nothing in. It writes b.
//   even(b, 3) reads and writes b on the host: out (2); the device copy is
//   then stale.
//   dispatch 3: in (2).
//   exit: out (3).
// to_device 2 (128 B, 1 fill of 64 B), from_device 3 (192 B), 3 dispatches.
// ferry-test: to_device 2 to_device_bytes 128 from_device 3 from_device_bytes 192
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 3
#include "walk.h"

#include <cstdio>

long long even(ferry::Buffer<int> &b, int k) {
  return k <= 0 ? b[0] : b[0] + odd(b, k - 1);
}

long long look(ferry::Buffer<int> &b, int k) {
  return k <= 0 ? b[1] : b[1] + peek(b, k - 1);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &b) {
  cc.dispatch(addOne, ferry::Range(b.size()), b);
  std::printf("peek %lld\n", peek(b, 3));
  cc.dispatch(addOne, ferry::Range(b.size()), b);
  std::printf("even %lld\n", even(b, 3));
  cc.dispatch(addOne, ferry::Range(b.size()), b);
}

int main() {
  ferry::Buffer<int> b(16, 5);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, b); });
  long long sum = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum += b[i];
  std::printf("sum %lld\n", sum);
}
