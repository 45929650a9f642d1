// Accelerator::keepOnDevice (issue 22): device data that outlives a
// compute. The rewriter writes it before a compute where Ferry proved the
// host has not written the buffer since the previous compute returned; the
// buffer's validity then carries into that compute instead of the device
// copy counting as stale.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

using namespace ferry_test;

namespace {

constexpr std::uint64_t F = sizeof(float);
constexpr int N = 16;

ferry::Buffer<float> ramp() {
  ferry::Buffer<float> b(N);
  std::iota(b.begin(), b.end(), 1.0f);
  return b;
}

// What the rewriter makes of a compute that scales `in` into `out` and
// brings `out` home: `in` is read on the device, guarded.
void scaleOnDevice(ferry::Accelerator &acc, const ferry::Buffer<float> &in,
                   ferry::Buffer<float> &out) {
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(in);
    cc.launch(kernelsSource, "scale", scale, ferry::Range(N), ferry::ro(in),
              ferry::wo(out), 2.0f);
    cc.fromDeviceIfStale(out);
  });
}

std::vector<float> values(const ferry::Buffer<float> &b) {
  return std::vector<float>(b.begin(), b.end());
}

std::vector<float> doubled(const ferry::Buffer<float> &b) {
  std::vector<float> v = values(b);
  for (float &x : v)
    x *= 2;
  return v;
}

} // namespace

TEST_CASE("keepOnDevice between two computes copies the input in once",
          "[keep]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> in = ramp(), out(N);
  ferry::resetStatistics();
  scaleOnDevice(acc, in, out);
  acc.keepOnDevice(in);
  scaleOnDevice(acc, in, out);
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.toDeviceCount == 1);
  CHECK(s.toDeviceBytes == N * F);
  CHECK(s.fromDeviceCount == 2);
  CHECK(s.fromDeviceBytes == 2 * N * F);
  CHECK(values(out) == doubled(in));
}

TEST_CASE("without keepOnDevice every compute copies the input in",
          "[keep]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> in = ramp(), out(N);

  SECTION("nothing written between") {
    ferry::resetStatistics();
    scaleOnDevice(acc, in, out);
    scaleOnDevice(acc, in, out);
    CHECK(ferry::statistics().toDeviceCount == 2);
    CHECK(ferry::statistics().toDeviceBytes == 2 * N * F);
  }
  SECTION("the host writes between") {
    ferry::resetStatistics();
    scaleOnDevice(acc, in, out);
    in[3] = 100; // where Ferry cannot see it
    scaleOnDevice(acc, in, out);
    CHECK(ferry::statistics().toDeviceCount == 2);
    CHECK(out[3] == 200);
  }
  CHECK(values(out) == doubled(in));
}

TEST_CASE("keepOnDevice applies to the very next compute only", "[keep]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> in = ramp(), out(N);
  ferry::resetStatistics();
  scaleOnDevice(acc, in, out); // 1 in
  acc.keepOnDevice(in);
  acc.compute([](ferry::ComputeContext &) {}); // the kept compute
  scaleOnDevice(acc, in, out); // in counts as stale again: 2 in
  CHECK(ferry::statistics().toDeviceCount == 2);
  // Kept from compute to compute, it stays on the device.
  acc.keepOnDevice(in);
  scaleOnDevice(acc, in, out);
  acc.keepOnDevice(in);
  scaleOnDevice(acc, in, out);
  CHECK(ferry::statistics().toDeviceCount == 2);
  CHECK(values(out) == doubled(in));
}

TEST_CASE("keepOnDevice carries the device's newer parts too", "[keep]") {
  // The first compute leaves the kernel's result on the device; the second
  // reads it on the host: kept, the host copy is still stale, so the guarded
  // copy back brings it.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> in = ramp(), out(N);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(in);
    cc.launch(kernelsSource, "scale", scale, ferry::Range(N), ferry::ro(in),
              ferry::wo(out), 3.0f);
    cc.fromDevice(out, 0, 4); // a quarter of it home
  });
  acc.keepOnDevice(out, in);
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.fromDeviceIfStale(out); // the other three quarters
  });
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.toDeviceCount == 1);
  CHECK(s.fromDeviceCount == 2);
  CHECK(s.fromDeviceBytes == N * F);
  CHECK(out[N - 1] == 3.0f * N);
}

TEST_CASE("keepOnDevice is safe for buffers with nothing to keep", "[keep]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> never = ramp(), out(N);
  ferry::Buffer<float> moved = ramp();
  ferry::Buffer<float> taken(std::move(moved));
  acc.keepOnDevice(never, moved);
  ferry::resetStatistics();
  scaleOnDevice(acc, never, out); // never on the device: copied in
  CHECK(ferry::statistics().toDeviceCount == 1);
  CHECK(values(out) == doubled(never));
  CHECK(moved.size() == 0);
  CHECK(taken.size() == N);
}

// (The reference execution's keepOnDevice, which needs no library, is
// called by reference_probe, which the statistics tests run.)
TEST_CASE("keepOnDevice does nothing on the host device and under the kernel "
          "policy",
          "[keep]") {
  ferry::Buffer<float> in = ramp(), out(N);
  {
    ScopedPolicy kernel(ferry::Policy::Kernel);
    ferry::resetStatistics();
    scaleOnDevice(cpuAccelerator(), in, out);
    cpuAccelerator().keepOnDevice(in);
    scaleOnDevice(cpuAccelerator(), in, out);
    CHECK(ferry::statistics().toDeviceCount == 2); // the policy's own
  }
  ScopedEnv device("FERRY_DEVICE", "host");
  ferry::Accelerator host;
  ferry::resetStatistics();
  scaleOnDevice(host, in, out);
  host.keepOnDevice(in);
  scaleOnDevice(host, in, out);
  CHECK(ferry::statistics().toDeviceCount == 0);
  CHECK(values(out) == doubled(in));
}

TEST_CASE("forgetDeviceCopies: a keep after it copies the host's data in "
          "once, and keeps it from then on",
          "[keep]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> in = ramp(), out(N), never(N);
  scaleOnDevice(acc, in, out);
  // A caller wrote `in` after its compute; the function it calls starts by
  // forgetting the device copies of the buffers it was handed.
  in[0] = 100.0f;
  ferry::forgetDeviceCopies(in, never);
  ferry::resetStatistics();
  acc.keepOnDevice(in);
  scaleOnDevice(acc, in, out);
  CHECK(ferry::statistics().toDeviceCount == 1);
  CHECK(values(out) == doubled(in));
  acc.keepOnDevice(in);
  scaleOnDevice(acc, in, out);
  CHECK(ferry::statistics().toDeviceCount == 1);
  CHECK(values(out) == doubled(in));
  CHECK(values(never) == std::vector<float>(N, 0.0f));
}
