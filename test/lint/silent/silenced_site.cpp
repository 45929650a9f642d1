// Races the user accepts, silenced at the site as with clang-tidy.
#include <ferry/ferry.hpp>

FERRY_KERNEL void flag(ferry::KernelContext kc, const int *in, int *out) {
  out[0] = 1; // NOLINT(ferry-race): every writer stores the same 1
  // NOLINTNEXTLINE(ferry-race)
  out[1] = 1;
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &in,
                       ferry::Buffer<int> &out) {
  cc.dispatch(flag, ferry::Range(in.size()), in, out);
}
