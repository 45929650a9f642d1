// A compute function defined `inline` in a header (header_compute.h): the
// rewritten file holds the header's rewritten text where it was included.
//
// By hand (32 ints = 128 B): copy in before the first dispatch (1); the
// host reads values[1] between the dispatches: that element out (1, 4 B;
// the second dispatch writes values again, so the read is not widened), the
// device copy stays valid, so nothing goes in before the second; copy out
// at the exit (2, 128 B). In 1 (128 B), out 2 (132 B); whole-buffer copies
// out moved 256 B.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 128 from_device 2 from_device_bytes 132
// ferry-test: dispatches 2
#include "header_compute.h"
#include "header_compute.h" // included again: skipped, as in the original

int main() {
  ferry::Buffer<int> values(32);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int>(i) + 2;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { squareTwice(cc, values); });
  printBuffer("values", values);
}
