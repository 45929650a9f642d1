// The five transfer calls of the planned policy: counts, bytes, validity,
// epochs.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ferry_test;

namespace {

void checkCounts(std::uint64_t toCount, std::uint64_t toBytes,
                 std::uint64_t fromCount, std::uint64_t fromBytes) {
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.toDeviceCount == toCount);
  CHECK(s.toDeviceBytes == toBytes);
  CHECK(s.fromDeviceCount == fromCount);
  CHECK(s.fromDeviceBytes == fromBytes);
}

} // namespace

TEST_CASE("each transfer call is counted exactly", "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x(10); // 40 bytes
  handedOut(x);
  ferry::resetStatistics();

  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(x);
    checkCounts(1, 40, 0, 0);
    CHECK(x.deviceValid());
    CHECK(x.hostValid());

    // The plan writes the unconditional form where it knows the copy is
    // stale, or cannot know what code it does not see wrote on the host (a
    // helper run through a function pointer between two computes): every
    // piece the host holds valid goes, though the bookkeeping says the
    // device's copy is current.
    x[5] = 9; // written unseen
    cc.toDevice(x);
    checkCounts(2, 80, 0, 0);

    cc.toDeviceIfStale(x); // device copy valid: skipped
    checkCounts(2, 80, 0, 0);

    cc.hostWrites(x); // no transfer, device copy now stale
    checkCounts(2, 80, 0, 0);
    CHECK_FALSE(x.deviceValid());
    CHECK(x.hostValid());
    x[3] = 7;

    cc.toDevice(x); // stale: copied
    checkCounts(3, 120, 0, 0);
    CHECK(x.deviceValid());

    cc.fromDevice(x); // the host copy is valid: nothing
    checkCounts(3, 120, 0, 0);
    CHECK(x[3] == 7);

    cc.launch(kernelsSource, "increment", increment, ferry::Range(10),
              ferry::rw(x));
    CHECK(x.deviceValid());
    CHECK_FALSE(x.hostValid());
    CHECK(x[3] == 7); // not copied back yet
    checkCounts(3, 120, 0, 0);

    // The host's copy is stale: the plain form moves nothing over the
    // device's newer one.
    cc.toDevice(x);
    checkCounts(3, 120, 0, 0);

    cc.fromDevice(x); // host copy stale: copied
    checkCounts(3, 120, 1, 40);
    cc.toDeviceIfStale(x); // device copy valid: skipped
    cc.fromDeviceIfStale(x); // host copy valid now: skipped
    checkCounts(3, 120, 1, 40);
    CHECK(x[5] == 10); // the unseen write reached the kernel
    CHECK(x.hostValid());
    CHECK(x[3] == 8);
    CHECK(x[0] == 1);
  });
  CHECK(ferry::statistics().dispatches == 1);
}

TEST_CASE("zero-byte transfers do nothing and are not counted",
          "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> empty(0);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(empty);
    cc.fromDevice(empty);
    cc.launch(kernelsSource, "square", square, ferry::Range(0),
              ferry::rw(empty), 0);
  });
  checkCounts(0, 0, 0, 0);
  CHECK(ferry::statistics().dispatches == 1);
}

TEST_CASE("a write-only kernel output needs no copy-in", "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> a{1, 2, 3};
  ferry::Buffer<float> b(3);
  handedOut(b);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(a);
    cc.launch(kernelsSource, "scale", scale, ferry::Range(3), ferry::ro(a),
              ferry::wo(b), 10.0f);
    CHECK(a.hostValid());
    CHECK(a.deviceValid());
    CHECK_FALSE(b.hostValid());
    cc.fromDeviceIfStale(a); // still valid on the host: skipped
    cc.fromDeviceIfStale(b);
  });
  checkCounts(1, 12, 1, 12);
  CHECK(std::vector<float>(b.begin(), b.end()) ==
        std::vector<float>{10, 20, 30});
}

TEST_CASE("a new compute starts a new epoch", "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x{1, 2, 3};
  auto body = [&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(3),
              ferry::rw(x));
    cc.fromDeviceIfStale(x);
  };

  ferry::resetStatistics();
  acc.compute(body);
  checkCounts(1, 12, 1, 12);
  CHECK(x.deviceValid()); // both copies agree at the end of compute
  CHECK(x.hostValid());

  // The host changes x outside any compute, where Ferry cannot see it.
  x[0] = 100;
  const std::uint64_t before = x.epoch();

  ferry::resetStatistics();
  acc.compute(body);
  CHECK(x.epoch() != before);
  checkCounts(1, 12, 1, 12); // copied in again despite deviceValid earlier
  // {2, 3, 4} after the first compute, x[0] = 100 on the host, then one
  // increment: the host's write reached the device.
  CHECK(std::vector<int>(x.begin(), x.end()) ==
        std::vector<int>{101, 4, 5});
}

TEST_CASE("kernel and naive policies ignore the written-out transfers",
          "[transfers]") {
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x(4);
  handedOut(x);
  for (ferry::Policy p : {ferry::Policy::Kernel, ferry::Policy::Naive}) {
    ScopedPolicy policy(p);
    ferry::resetStatistics();
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.toDevice(x);
      cc.toDeviceIfStale(x);
      cc.hostWrites(x);
      cc.fromDevice(x);
      cc.fromDeviceIfStale(x);
    });
    checkCounts(0, 0, 0, 0);
  }
}

TEST_CASE("buffers of a const buffer view run read-only", "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  const ferry::Buffer<float> a{2, 4};
  ferry::Buffer<float> b(2);
  handedOut(b);
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(a);
    cc.launch(kernelsSource, "scale", scale, ferry::Range(2), ferry::ro(a),
              ferry::wo(b), 0.5f);
    cc.fromDeviceIfStale(b);
  });
  CHECK(b[0] == 1.0f);
  CHECK(b[1] == 2.0f);
}

TEST_CASE("the guarded transfers see a new compute's epoch", "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x{1, 2, 3};
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(3),
              ferry::rw(x));
    cc.fromDeviceIfStale(x);
  });
  checkCounts(1, 12, 1, 12);
  CHECK(x.deviceValid());

  x[1] = 50; // between computes
  acc.compute([&](ferry::ComputeContext &cc) {
    // Before any call: only the host copy counts in the new epoch.
    CHECK_FALSE(x.deviceValid());
    CHECK(x.hostValid());
    cc.fromDeviceIfStale(x); // the host copy is valid: nothing to do
    checkCounts(1, 12, 1, 12);
    CHECK(x[1] == 50);
    cc.toDeviceIfStale(x); // the device copy is stale: copied
    checkCounts(2, 24, 1, 12);
    cc.toDeviceIfStale(x); // now valid: skipped
    checkCounts(2, 24, 1, 12);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(3),
              ferry::rw(x));
    cc.fromDeviceIfStale(x);
  });
  checkCounts(2, 24, 2, 24);
  CHECK(std::vector<int>(x.begin(), x.end()) == std::vector<int>{3, 51, 5});
}

TEST_CASE("hostWrites(b, n) copies back first unless n covers b",
          "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x{1, 2, 3, 4};
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(x));
    cc.hostWrites(x, 2); // std::copy into the first two: the rest is needed
    checkCounts(1, 16, 1, 16);
    CHECK(x.hostValid());
    CHECK_FALSE(x.deviceValid());
    x[0] = 10;
    x[1] = 20;
    cc.toDeviceIfStale(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(x));
    cc.hostWrites(x, 4); // overwrites all of it: nothing to copy back
    checkCounts(2, 32, 1, 16);
    CHECK_FALSE(x.deviceValid());
    CHECK(x.hostValid());
  });
  CHECK(std::vector<int>(x.begin(), x.end()) ==
        std::vector<int>{10, 20, 4, 5});
}

TEST_CASE("a buffer still as made is filled on the device, not copied",
          "[transfers]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> zeros(6), sevens(6, 7), listed{1, 2, 3}, read(2, 3);
  ferry::Buffer<double> halves(3, 0.5);
  CHECK(zeros.size() == 6); // size() hands nothing out
  const ferry::Buffer<int> &view = read;
  CHECK(view[1] == 3); // a const read does: its result may be const_cast
  CHECK_FALSE(read.pristine());
  CHECK(zeros.pristine());
  CHECK(sevens.pristine());
  CHECK_FALSE(listed.pristine()); // made from a list: no one value
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(zeros);
    cc.toDevice(sevens);
    cc.toDevice(halves);
    cc.toDevice(listed);
    const ferry::Statistics s = ferry::statistics();
    // Fills are copies in like the others, moving no bytes over the bus.
    CHECK(s.fillCount == 3);
    CHECK(s.fillBytes == 24 + 24 + 24);
    CHECK(s.toDeviceCount == 4);
    CHECK(s.toDeviceBytes == 24 + 24 + 24 + 12);
    // The device holds what the host holds.
    cc.launch(kernelsSource, "increment", increment, ferry::Range(6),
              ferry::rw(sevens));
    cc.launch(kernelsSource, "increment", increment, ferry::Range(6),
              ferry::rw(zeros));
    cc.fromDevice(sevens);
    cc.fromDevice(zeros);
  });
  CHECK(sevens[5] == 8);
  CHECK(zeros[0] == 1);
  // Brought back, and handed out: from now on the copies are copies.
  CHECK_FALSE(sevens.pristine());
  ferry::Buffer<int> written(4, 1);
  written[0] = 5;
  CHECK_FALSE(written.pristine());
  ferry::Buffer<int> moved(std::move(zeros));
  CHECK_FALSE(moved.pristine());
  ferry::Buffer<int> fresh(4);
  ferry::Buffer<int> taken(std::move(fresh));
  CHECK(taken.pristine());
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(written);
    cc.toDevice(taken);
  });
  CHECK(ferry::statistics().toDeviceCount == 2);
  CHECK(ferry::statistics().fillCount == 1);
}
