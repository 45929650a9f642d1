// Issue 31's extensions in the reference execution, built from ferry.hpp
// alone (no library, no OpenCL): cc.finish() has nothing to wait for,
// acc.device() and cc.device() report the host, and
// kc.barrier(ferry::globalFence) is a barrier like kc.barrier(). Exits 1,
// naming each check that failed.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <thread>

namespace {
int failures = 0;
void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
} // namespace

// Each work-item takes the element its mirror in the group wrote before the
// barrier: only right if every item waits there.
FERRY_KERNEL void mirror(ferry::KernelContext kc, int *v) {
  ferry::Local<int, 8> seen;
  v[kc.x] = kc.x * 3;
  kc.barrier(ferry::globalFence);
  seen[kc.localX] = v[kc.groupX * kc.localSizeX + kc.localSizeX - 1 - kc.localX];
  kc.barrier();
  v[kc.x] = seen[kc.localX];
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &v,
                       ferry::Device &seen) {
  seen = cc.device();
  cc.dispatch(mirror, ferry::Range(v.size()).local(8), v);
  cc.finish();
  cc.finish(); // twice: still nothing to wait for
}

int main() {
  ferry::Accelerator acc;
  const ferry::Device d = acc.device();
  const unsigned cores = std::thread::hardware_concurrency();
  check(d.name == "reference", "the device is named 'reference'");
  check(d.computeUnits == (cores > 0 ? cores : 1u),
        "compute units are the host's cores");
  check(d.maxWorkGroupSize == 1024, "groups of 1024");
  check(d.localMemoryBytes == 64 * 1024, "64 KiB of local memory");
#if defined(__linux__)
  check(d.globalMemoryBytes > 0, "the host's memory as global memory");
#endif
  ferry::Buffer<int> v(16);
  ferry::Device inside;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v, inside); });
  check(inside.name == d.name && inside.computeUnits == d.computeUnits &&
            inside.maxWorkGroupSize == d.maxWorkGroupSize &&
            inside.localMemoryBytes == d.localMemoryBytes &&
            inside.globalMemoryBytes == d.globalMemoryBytes,
        "cc.device() is acc.device()");
  for (int i = 0; i < 16; ++i)
    check(v[i] == (i / 8 * 8 + 7 - i % 8) * 3, "the mirrored element");
  check(ferry::statistics().dispatches == 1, "one dispatch");
  if (failures == 0)
    std::printf("ok\n");
  return failures == 0 ? 0 : 1;
}
