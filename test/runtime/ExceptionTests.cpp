// An exception that leaves Accelerator::compute first copies home every
// buffer whose device copy is newer (issue 22): the host never keeps stale
// data, and only what is stale comes back.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <vector>

using namespace ferry_test;

namespace {

constexpr std::uint64_t I = sizeof(int);

int shell(const std::string &command) {
  const int status = std::system(command.c_str());
  return (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

ferry::Buffer<int> iota(std::size_t n) {
  ferry::Buffer<int> b(n);
  std::iota(b.begin(), b.end(), 0);
  return b;
}

std::vector<int> values(const ferry::Buffer<int> &b) {
  return std::vector<int>(b.begin(), b.end());
}

struct Stop : std::runtime_error {
  Stop() : std::runtime_error("stop") {}
};

} // namespace

TEST_CASE("an exception leaving compute brings the device's newer data home",
          "[exceptions]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = iota(8);
  ferry::Buffer<int> untouched = iota(4); // on the device, never written
  ferry::resetStatistics();
  CHECK_THROWS_AS(acc.compute([&](ferry::ComputeContext &cc) {
                    cc.toDevice(b);
                    cc.toDevice(untouched);
                    cc.launch(kernelsSource, "increment", increment,
                              ferry::Range(8), ferry::rw(b));
                    throw Stop(); // before the planned copy back
                  }),
                  Stop);
  CHECK(values(b) == (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  CHECK(b.hostValid());
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.toDeviceCount == 2);
  CHECK(s.fromDeviceCount == 1); // b alone: untouched's host copy is valid
  CHECK(s.fromDeviceBytes == 8 * I);
  const auto &listed = ferry::detail::deviceNewerBuffers();
  CHECK(std::find(listed.begin(), listed.end(), &b) == listed.end());
}

TEST_CASE("the registry of device-newer buffers follows moves and "
          "destruction",
          "[exceptions]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  const auto &listed = ferry::detail::deviceNewerBuffers();
  auto isListed = [&](const ferry::detail::BufferBase &b) {
    return std::find(listed.begin(), listed.end(), &b) != listed.end();
  };
  const std::size_t outside = listed.size();
  cpuAccelerator().compute([&](ferry::ComputeContext &cc) {
    ferry::Buffer<int> a = iota(4), other = iota(4);
    cc.toDevice(a);
    cc.toDevice(other);
    CHECK_FALSE(isListed(a)); // the host's copy is as new
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(a));
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(other));
    CHECK(isListed(a));
    const std::size_t before = listed.size();
    {
      ferry::Buffer<int> b(std::move(a)); // construction
      CHECK(isListed(b));
      CHECK_FALSE(isListed(a));
      other = std::move(b); // assignment: other's own entry goes
      CHECK(isListed(other));
      CHECK_FALSE(isListed(b));
      CHECK(listed.size() == before - 1);
    }
    cc.fromDevice(other, 0, 2);
    CHECK(isListed(other)); // still newer on the device in part
    cc.fromDeviceIfStale(other);
    CHECK_FALSE(isListed(other)); // whole on the host again
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(other));
    CHECK(listed.size() == before - 1);
  }); // other is destroyed listed: it leaves
  CHECK(listed.size() == outside);
}

TEST_CASE("only the pieces still stale on the host come home", "[exceptions]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = iota(8);
  ferry::resetStatistics();
  try {
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.toDevice(b);
      cc.launch(kernelsSource, "increment", increment, ferry::Range(8),
                ferry::rw(b));
      cc.fromDevice(b, 0, 3);
      cc.hostWrites(b, 0, 1);
      b[0] = 50; // the host's, newer than the device's
      // A buffer made inside the compute is gone before compute ends.
      ferry::Buffer<int> scratch = iota(4);
      cc.toDevice(scratch);
      cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
                ferry::rw(scratch));
      throw Stop();
    });
    FAIL("no exception");
  } catch (const Stop &) {
  }
  // In: b, scratch. Out: [0, 3), then [3, 8) at the exception.
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.toDeviceCount == 2);
  CHECK(s.fromDeviceCount == 2);
  CHECK(s.fromDeviceBytes == 8 * I);
  CHECK(values(b) == (std::vector<int>{50, 2, 3, 4, 5, 6, 7, 8}));
}

TEST_CASE("a buffer left on the device by an earlier compute is not brought "
          "home by a later one's exception",
          "[exceptions]") {
  // The first compute leaves its result on the device (a plan that knows
  // main never reads it again). In the next compute the host copy counts
  // as the latest, since the host may have written it in between.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> left = iota(4);
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(left);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(left));
  });
  left[0] = 9; // between computes
  ferry::resetStatistics();
  CHECK_THROWS_AS(
      acc.compute([&](ferry::ComputeContext &) { throw Stop(); }), Stop);
  CHECK(ferry::statistics().fromDeviceCount == 0);
  CHECK(values(left) == (std::vector<int>{9, 1, 2, 3}));
}

TEST_CASE("an exception under the kernel policy and on the host device "
          "leaves nothing behind",
          "[exceptions]") {
  ferry::Buffer<int> b = iota(4);
  auto body = [&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(b));
    throw Stop();
  };
  {
    ScopedPolicy kernel(ferry::Policy::Kernel);
    ferry::resetStatistics();
    CHECK_THROWS_AS(cpuAccelerator().compute(body), Stop);
    CHECK(ferry::statistics().fromDeviceCount == 1); // the policy's own
  }
  ScopedEnv device("FERRY_DEVICE", "host");
  ferry::Accelerator host;
  CHECK_THROWS_AS(host.compute(body), Stop);
  CHECK(values(b) == (std::vector<int>{2, 3, 4, 5}));
}

TEST_CASE("a whole program caught outside compute has the kernel's results "
          "and a silent stderr",
          "[exceptions]") {
  const std::string out = tmpPath("throws_out.txt");
  const std::string err = tmpPath("throws_err.txt");
  REQUIRE(shell(std::string("FERRY_DEVICE=cpu '") + FERRY_DEVICE_PROBE +
                "' throws > '" + out + "' 2> '" + err + "'") == 0);
  CHECK_THAT(readFile(out), Catch::EndsWith("caught: 4 8 12\n"));
  CHECK(readFile(err).empty());
}
