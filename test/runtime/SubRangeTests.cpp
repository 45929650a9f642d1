// Per-range validity and the sub-range transfer calls (issue 22):
// cc.toDevice(b, first, count) and friends copy exactly their elements, the
// guarded calls exactly the stale pieces, each piece one transfer, and the
// whole-buffer calls keep their meaning.
#include "TestSupport.hpp"

#include "Internal.hpp" // the stale pieces of a buffer, to check exactly

#include <catch2/catch.hpp>

#include <climits>
#include <numeric>
#include <utility>
#include <vector>

using namespace ferry_test;

namespace {

constexpr std::uint64_t I = sizeof(int);

using Pieces = std::vector<std::pair<std::size_t, std::size_t>>;

// The element ranges of b stale on `side`.
template <class T> Pieces stale(const ferry::Buffer<T> &b,
                                ferry::detail::Side side) {
  std::vector<ferry::detail::Piece> bytes;
  ferry::detail::BufferAccess::stalePieces(b, side, 0, b.bytes(), bytes);
  Pieces out;
  for (const ferry::detail::Piece &p : bytes)
    out.emplace_back(p.first / sizeof(T), p.last / sizeof(T));
  return out;
}
constexpr ferry::detail::Side Host = ferry::detail::Side::Host;
constexpr ferry::detail::Side Device = ferry::detail::Side::Device;

struct Counts {
  std::uint64_t to, toBytes, from, fromBytes;
  std::uint64_t partialTo, partialToBytes, partialFrom, partialFromBytes;
  bool operator==(const Counts &o) const {
    return to == o.to && toBytes == o.toBytes && from == o.from &&
           fromBytes == o.fromBytes && partialTo == o.partialTo &&
           partialToBytes == o.partialToBytes &&
           partialFrom == o.partialFrom &&
           partialFromBytes == o.partialFromBytes;
  }
};
std::ostream &operator<<(std::ostream &os, const Counts &c) {
  return os << "to " << c.to << " (" << c.toBytes << " B), from " << c.from
            << " (" << c.fromBytes << " B), partial to " << c.partialTo
            << " (" << c.partialToBytes << " B), partial from "
            << c.partialFrom << " (" << c.partialFromBytes << " B)";
}
Counts counts() {
  const ferry::Statistics s = ferry::statistics();
  return Counts{s.toDeviceCount,          s.toDeviceBytes,
                s.fromDeviceCount,        s.fromDeviceBytes,
                s.partialToDeviceCount,   s.partialToDeviceBytes,
                s.partialFromDeviceCount, s.partialFromDeviceBytes};
}

ferry::Buffer<int> iota(std::size_t n) {
  ferry::Buffer<int> b(n);
  std::iota(b.begin(), b.end(), 0);
  return b;
}

std::vector<int> values(const ferry::Buffer<int> &b) {
  return std::vector<int>(b.begin(), b.end());
}

} // namespace

TEST_CASE("elementRange clamps a sub-range to the buffer", "[subrange]") {
  using ferry::detail::elementRange;
  using R = std::pair<std::size_t, std::size_t>;
  CHECK(elementRange(2, 3, 10) == R(2, 5));
  CHECK(elementRange(8, 100, 10) == R(8, 10));
  CHECK(elementRange(-2, 4, 10) == R(0, 2)); // the start is cut off
  CHECK(elementRange(-4, 4, 10).first == elementRange(-4, 4, 10).second);
  CHECK(elementRange(3, -1, 10).first == elementRange(3, -1, 10).second);
  CHECK(elementRange(10, 5, 10).first == elementRange(10, 5, 10).second);
  CHECK(elementRange(0u, 0u, 10).first == elementRange(0u, 0u, 10).second);
  CHECK(elementRange(std::size_t(3), std::size_t(4), 10) == R(3, 7));
  CHECK(elementRange(short(1), 'A', 10) == R(1, 10));
  CHECK(elementRange(LLONG_MIN, LLONG_MAX, 10).first ==
        elementRange(LLONG_MIN, LLONG_MAX, 10).second);
  CHECK(elementRange(LLONG_MIN + 5, ULLONG_MAX, 10) == R(0, 10));
  CHECK(elementRange(0, ULLONG_MAX, 10) == R(0, 10));
}

TEST_CASE("sub-range copies move exactly their elements, and the guarded "
          "calls exactly the stale pieces",
          "[subrange]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x = iota(10);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(x, 2, 3); // elements 2, 3, 4
    CHECK(counts() == (Counts{1, 3 * I, 0, 0, 1, 3 * I, 0, 0}));
    CHECK(stale(x, Device) == (Pieces{{0, 2}, {5, 10}}));
    CHECK(stale(x, Host).empty());
    CHECK_FALSE(x.deviceValid());
    CHECK(x.hostValid());

    cc.toDeviceIfStale(x, 4, 3); // 4 is valid: only 5 and 6
    CHECK(counts() == (Counts{2, 5 * I, 0, 0, 2, 5 * I, 0, 0}));
    cc.toDeviceIfStale(x); // the two pieces left: [0, 2) and [7, 10)
    CHECK(counts() == (Counts{4, 10 * I, 0, 0, 4, 10 * I, 0, 0}));
    CHECK(x.deviceValid());
    cc.toDeviceIfStale(x); // nothing stale: nothing
    CHECK(counts() == (Counts{4, 10 * I, 0, 0, 4, 10 * I, 0, 0}));

    cc.launch(kernelsSource, "increment", increment, ferry::Range(10),
              ferry::rw(x));
    CHECK(stale(x, Host) == (Pieces{{0, 10}}));
    cc.fromDevice(x, 9, 1); // one element read back
    CHECK(x[9] == 10);
    CHECK(x[8] == 8); // not yet
    CHECK(stale(x, Host) == (Pieces{{0, 9}}));
    cc.fromDeviceIfStale(x, 0, 3);
    CHECK(stale(x, Host) == (Pieces{{3, 9}}));
    // A later whole read fetches only what is still missing.
    cc.fromDeviceIfStale(x);
    CHECK(x.hostValid());
    CHECK(x.deviceValid());
  });
  // In: 3 + 2 + 2 + 3 elements; out: 1 + 3 + 6, never more than the buffer.
  CHECK(counts() == (Counts{4, 10 * I, 3, 10 * I, 4, 10 * I, 3, 10 * I}));
  CHECK(values(x) == (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
}

TEST_CASE("hostWrites(b, first, count) makes only that range stale on the "
          "device",
          "[subrange]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x = iota(8);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(8),
              ferry::rw(x));
    cc.fromDeviceIfStale(x);
    CHECK(counts() == (Counts{1, 8 * I, 1, 8 * I, 0, 0, 0, 0}));
    cc.hostWrites(x, 3, 2); // no copy
    CHECK(counts() == (Counts{1, 8 * I, 1, 8 * I, 0, 0, 0, 0}));
    CHECK(stale(x, Device) == (Pieces{{3, 5}}));
    CHECK(x.hostValid());
    x[3] = 100;
    x[4] = 200;
    cc.toDeviceIfStale(x); // the two written elements alone
    CHECK(counts() == (Counts{2, 10 * I, 1, 8 * I, 1, 2 * I, 0, 0}));
    cc.launch(kernelsSource, "increment", increment, ferry::Range(8),
              ferry::rw(x));
    cc.hostWrites(x, 6, 1); // waits for the launch; the rest stays the
    CHECK(stale(x, Host) == (Pieces{{0, 6}, {7, 8}})); // device's
    CHECK(stale(x, Device) == (Pieces{{6, 7}}));
    x[6] = -1;
    cc.fromDeviceIfStale(x); // both pieces, not element 6
  });
  CHECK(counts() == (Counts{2, 10 * I, 3, 15 * I, 1, 2 * I, 2, 7 * I}));
  CHECK(values(x) == (std::vector<int>{2, 3, 4, 101, 201, 7, -1, 9}));
}

TEST_CASE("hostWrites(b, n) still leaves the whole host copy valid",
          "[subrange]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x = iota(6);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(6),
              ferry::rw(x));
    cc.fromDevice(x, 0, 2); // the first two are back
    cc.hostWrites(x, 3); // does not cover x: the rest comes back first
    CHECK(x.hostValid());
    CHECK(stale(x, Device) == (Pieces{{0, 6}}));
    CHECK(counts() == (Counts{1, 6 * I, 2, 6 * I, 0, 0, 2, 6 * I}));
  });
  CHECK(values(x) == (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

TEST_CASE("a sub-range of a buffer still as made is filled on the device",
          "[subrange]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> sevens(8, 7);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(sevens, 2, 3);
    CHECK(ferry::statistics().fillCount == 1);
    CHECK(ferry::statistics().fillBytes == 3 * I);
    cc.toDeviceIfStale(sevens); // [0, 2) and [5, 8), filled too
    const ferry::Statistics s = ferry::statistics();
    CHECK(s.fillCount == 3);
    CHECK(s.fillBytes == 8 * I);
    CHECK(s.toDeviceCount == 3);
    CHECK(s.toDeviceBytes == 8 * I);
    CHECK(sevens.pristine());
    cc.launch(kernelsSource, "increment", increment, ferry::Range(8),
              ferry::rw(sevens));
    cc.fromDevice(sevens, 6, 2); // the host storage is written: not as made
    CHECK_FALSE(sevens.pristine());
    cc.fromDeviceIfStale(sevens);
  });
  CHECK(values(sevens) == std::vector<int>(8, 8));
}

TEST_CASE("sub-range pieces are maps where the device uses host memory",
          "[subrange]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ScopedEnv device("FERRY_DEVICE", "cpu");
  ScopedEnv minimum("FERRY_PINNED_MIN", "0");
  ferry::Buffer<int> a = iota(1000); // pinned
  ferry::Accelerator acc;
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(a, 0, 500);
    cc.toDeviceIfStale(a);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(1000),
              ferry::rw(a));
    cc.fromDevice(a, 10, 5);
    CHECK(a[12] == 13);
    cc.fromDeviceIfStale(a);
  });
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.toDeviceCount == 2);
  CHECK(s.toDeviceBytes == 1000 * I);
  CHECK(s.fromDeviceCount == 3); // [10, 15), then [0, 10) and [15, 1000)
  CHECK(s.fromDeviceBytes == 1000 * I);
  CHECK(s.partialFromDeviceCount == 3);
  if (s.unifiedMemory) {
    CHECK(s.mapCount == 5);
    CHECK(s.mapBytes == 2000 * I);
  } else {
    CHECK(s.mapCount == 0);
  }
  std::vector<int> expected(1000);
  std::iota(expected.begin(), expected.end(), 1);
  CHECK(values(a) == expected);
}

TEST_CASE("sub-range calls do nothing under the kernel and naive policies "
          "and on the host device",
          "[subrange]") {
  ferry::Buffer<int> x = iota(4);
  auto calls = [&](ferry::ComputeContext &cc) {
    cc.toDevice(x, 0, 2);
    cc.toDeviceIfStale(x, 1, 2);
    cc.hostWrites(x, 0, 1);
    cc.fromDevice(x, 2, 2);
    cc.fromDeviceIfStale(x, 0, 4);
  };
  for (ferry::Policy p : {ferry::Policy::Kernel, ferry::Policy::Naive}) {
    ScopedPolicy policy(p);
    ferry::resetStatistics();
    cpuAccelerator().compute(calls);
    CHECK(counts() == (Counts{0, 0, 0, 0, 0, 0, 0, 0}));
  }
  ScopedEnv device("FERRY_DEVICE", "host");
  ferry::Accelerator host;
  ferry::resetStatistics();
  host.compute(calls);
  CHECK(counts() == (Counts{0, 0, 0, 0, 0, 0, 0, 0}));
  CHECK(values(x) == (std::vector<int>{0, 1, 2, 3}));
}

TEST_CASE("validity is per range across a buffer's move", "[subrange]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> x = iota(6);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(6),
              ferry::rw(x));
    cc.fromDevice(x, 0, 3);
    ferry::Buffer<int> y(std::move(x));
    CHECK(stale(y, Host) == (Pieces{{3, 6}}));
    CHECK(x.hostValid());
    cc.fromDeviceIfStale(y); // [3, 6)
    x = std::move(y);
  });
  CHECK(counts() == (Counts{1, 6 * I, 2, 6 * I, 0, 0, 2, 6 * I}));
  CHECK(values(x) == (std::vector<int>{1, 2, 3, 4, 5, 6}));
}
