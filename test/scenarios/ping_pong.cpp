// Ping-pong between the caller's buffer and a local one, chosen each step by
// a conditional reference; when the step count is odd the result is in the
// local buffer and the host copies it back.
//
// By hand (32 ints = 128 B, 3 steps):
//   step 0: `from` = data, stale on the device: in (1); `to` = scratch, fully
//           overwritten: no copy.
//   steps 1, 2: both valid on the device: nothing.
//   steps odd: std::copy reads scratch (stale on the host): out (1), and
//           overwrites all of data on the host, so data needs no copy out.
//   exit: data is valid on the host; scratch dies.
// In 1, out 1.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 128 from_device 1 from_device_bytes 128
// ferry-test: dispatches 3
#include "Print.h"

#include <algorithm>

FERRY_KERNEL void blur(ferry::KernelContext kc, const int *from, int *to) {
  const int n = kc.maxX;
  const int left = from[(kc.x + n - 1) % n], right = from[(kc.x + 1) % n];
  to[kc.x] = (left + 2 * from[kc.x] + right) / 4;
}

FERRY_COMPUTE void smooth(ferry::ComputeContext &cc, ferry::Buffer<int> &data,
                          int steps) {
  ferry::Buffer<int> scratch(data.size());
  for (int s = 0; s < steps; ++s) {
    auto &from = (s % 2 == 0) ? data : scratch;
    auto &to = (s % 2 == 0) ? scratch : data;
    cc.dispatch(blur, ferry::Range(data.size()), from, to);
  }
  if (steps % 2 == 1)
    std::copy(scratch.begin(), scratch.end(), data.begin());
}

int main() {
  ferry::Buffer<int> data(32);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<int>(i * i % 50) * 16;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { smooth(cc, data, 3); });
  printBuffer("data", data);
}
