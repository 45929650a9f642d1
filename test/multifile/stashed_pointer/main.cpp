// Issue 33: a function of another Ferry source (other.cpp) keeps a
// pointer into a buffer in a static variable main.cpp cannot see, and
// another writes through it. Each function's summary says it runs no code
// Ferry cannot see, so the file's `pointer_places` must: other.cpp can
// reach `float` elements through a pointer, and main.cpp then keeps no
// `float` buffer on the device between computes (the one-file form sees
// the static itself). Keeping `a` would run the next `grow` on a device
// copy without the host's `nudge`, and print 3.0 for `a[3]`.
//
// By hand (`a`: 16 floats, 64 B): each of the 3 computes copies `a` in
// (`remember` may have written it, and `nudge` does) and brings it home.
// In 3 (192 B), out 3 (192 B), dispatches 3.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 192
// ferry-test: from_device 3 from_device_bytes 192
// ferry-test: dispatches 3
#include "other.h"

#include <cstdio>

int main() {
  ferry::Buffer<float> a(16, 0.0f);
  ferry::Accelerator acc;
  remember(a);
  for (int s = 0; s < 3; ++s) {
    acc.compute([&](ferry::ComputeContext &cc) { grow(cc, a); });
    nudge();
  }
  std::printf("%.1f %.1f\n", a[0], a[3]);
  return 0;
}
