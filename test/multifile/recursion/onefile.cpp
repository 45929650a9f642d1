// The recursion program (main.cpp, walk.cpp, walk.h) as one file. Here the
// planner's rule for a recursive helper within one file applies: a call
// that reaches its own caller again is taken to read and write every buffer
// it is given, so peek() counts as writing b. The multi-file form composes
// the files' summaries to a least fixpoint instead, which knows peek() and
// look() only read: one copy fewer (main.cpp).
//
// By hand (16 ints = 64 B; b made with a value: its first copy in is a fill):
//   dispatch 1: in (1, a fill). peek(b, 3), taken to read and write b: out
//   (1), then the device copy is stale. dispatch 2: in (2). even(b, 3): out
//   (2), stale again. dispatch 3: in (3). exit: out (3).
// to_device 3 (192 B, 1 fill of 64 B), from_device 3 (192 B), 3 dispatches.
// ferry-test: to_device 3 to_device_bytes 192 from_device 3 from_device_bytes 192
// ferry-test: fills 1 fill_bytes 64
// ferry-test: dispatches 3
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL inline void addOne(ferry::KernelContext kc, int *b) {
  if (kc.x < kc.maxX)
    b[kc.x] += 1;
}

long long even(ferry::Buffer<int> &b, int k); // main.cpp: reads b
long long odd(ferry::Buffer<int> &b, int k);  // walk.cpp: reads and writes b
long long peek(ferry::Buffer<int> &b, int k); // walk.cpp: reads b only
long long look(ferry::Buffer<int> &b, int k); // main.cpp: reads b only

long long odd(ferry::Buffer<int> &b, int k) {
  if (k <= 0)
    return b[0];
  b[0] += 1;
  return b[0] + even(b, k - 1);
}

long long peek(ferry::Buffer<int> &b, int k) {
  return k <= 0 ? b[1] : b[1] + look(b, k - 1);
}


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
