// ferry::wo and its coverage check: a write-only argument whose kernel
// overwrites only the first elements of the buffer leaves the rest as valid
// as it was (per range), so nothing is copied in for it and only the part
// written comes back; ferry::woBeyond (a kernel that may store past its
// range) and a grid with gaps still get the host's data first, so the
// elements the kernel leaves alone survive the copy back.
#include "TestSupport.hpp"

#include "Internal.hpp" // the stale pieces of a buffer, to check exactly

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

using namespace ferry_test;

namespace {

constexpr std::uint64_t I = sizeof(int);
constexpr int N = 8; // elements of each buffer in the policy comparison
static_assert(sizeof(float) == sizeof(int), "byte counts below mix them");

struct Counts {
  std::uint64_t to, toBytes, from, fromBytes;
};

Counts counts() {
  const ferry::Statistics s = ferry::statistics();
  return Counts{s.toDeviceCount, s.toDeviceBytes, s.fromDeviceCount,
                s.fromDeviceBytes};
}

void checkCounts(std::uint64_t to, std::uint64_t toBytes, std::uint64_t from,
                 std::uint64_t fromBytes) {
  const Counts c = counts();
  CHECK(c.to == to);
  CHECK(c.toBytes == toBytes);
  CHECK(c.from == from);
  CHECK(c.fromBytes == fromBytes);
}

using Pieces = std::vector<std::pair<std::size_t, std::size_t>>;
constexpr ferry::detail::Side Host = ferry::detail::Side::Host;
constexpr ferry::detail::Side Device = ferry::detail::Side::Device;

// The element ranges of b stale on `side`.
Pieces stale(const ferry::Buffer<int> &b, ferry::detail::Side side) {
  std::vector<ferry::detail::Piece> bytes;
  ferry::detail::BufferAccess::stalePieces(b, side, 0, b.bytes(), bytes);
  Pieces out;
  for (const ferry::detail::Piece &p : bytes)
    out.emplace_back(p.first / sizeof(int), p.last / sizeof(int));
  return out;
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

TEST_CASE("wo(b, grid(...)) covers rows * width when the columns reach it",
          "[writeonly]") {
  using ferry::Range;
  // a[y * w + x], x < 7 and y < 6, w = 7, over a range rounded up to 8 x 8.
  ferry::GridBound g = ferry::grid(0, 7, 7, 1, 6);
  CHECK(g.covered(Range(8, 8)) == 42);
  CHECK(g.covered(Range(7, 3)) == 21); // the range stops at row 3
  CHECK(g.covered(Range(6, 8)) == 0);  // columns short of the width: gaps
  // No column guard: the range's columns alone must reach the width.
  CHECK(ferry::grid(0, ferry::unbounded, 7, 1, 6).covered(Range(7, 6)) == 42);
  // A column guard below the width leaves gaps, whatever the range.
  CHECK(ferry::grid(0, 5, 7, 1, 6).covered(Range(8, 8)) == 0);
  // The transposed grid: the column is y.
  CHECK(ferry::grid(1, 4, 4, 0, 9).covered(Range(3, 4)) == 12);
  // A loop of 5 rows over a 1-D range (cfd): 5 * n, n = 9.
  CHECK(ferry::grid(0, 9, 9, -1, 5).covered(Range(16)) == 45);
  CHECK(ferry::grid(0, 9, 9, -1, 0).covered(Range(16)) == 0);
  // Negative arguments admit nothing.
  CHECK(ferry::grid(0, 7, -7, 1, 6).covered(Range(8, 8)) == 0);
  CHECK(ferry::grid(0, 7, 7, 1, -6).covered(Range(8, 8)) == 0);
  // A volume of nz planes of 5 x 4 (hotspot3D): whole only when the range
  // covers a plane.
  CHECK(ferry::volume(0, 5, 1, 4, 2 + ferry::tripCount(1, 3 - 1)).covered(
            Range(5, 4)) == 60);
  CHECK(ferry::volume(0, 5, 1, 4, 3).covered(Range(8, 8)) == 60);
  CHECK(ferry::volume(0, 5, 1, 4, 3).covered(Range(5, 3)) == 0);
  CHECK(ferry::volume(0, 5, 1, 4, 3).covered(Range(4, 4)) == 0);
  CHECK(ferry::tripCount(1, 0) == 0);
  CHECK(ferry::tripCount(1, 5u) == 4);
  ferry::Buffer<int> b(4);
  CHECK(ferry::wo(b, g).grid().valid);
  CHECK_FALSE(ferry::wo(b, 3).grid().valid);
}

TEST_CASE("wo(b, bound) keeps the bound, clamped to zero", "[writeonly]") {
  ferry::Buffer<int> b(4);
  CHECK(ferry::wo(b).bound() == std::numeric_limits<std::size_t>::max());
  CHECK(ferry::wo(b).access() == ferry::Access::WO);
  CHECK(ferry::wo(b, 3).bound() == 3);
  CHECK(ferry::wo(b, 3).access() == ferry::Access::WO);
  CHECK(ferry::wo(b, -5).bound() == 0);
  CHECK(ferry::wo(b, std::numeric_limits<long long>::min()).bound() == 0);
  CHECK(ferry::wo(b, short(7)).bound() == 7);
  CHECK(ferry::wo(b, 9u).bound() == 9);
  CHECK(ferry::wo(b, std::size_t(11)).bound() == 11);
  CHECK(ferry::wo(b, std::int64_t(1) << 40).bound() ==
        (std::size_t(1) << 40));
  CHECK(ferry::wo(b, 'A').bound() == 65);
}

TEST_CASE("a wo argument the range covers is not copied in",
          "[writeonly]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(8);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(8), ferry::wo(out),
              7);
    checkCounts(0, 0, 0, 0);
    // A bound at or above the range's count covers it too.
    cc.launch(kernelsSource, "fill_below", fill_below, ferry::Range(8),
              ferry::wo(out, 8), 6, 8);
    cc.launch(kernelsSource, "fill_below", fill_below, ferry::Range(8),
              ferry::wo(out, 1000u), 5, 1000);
    checkCounts(0, 0, 0, 0);
    cc.fromDeviceIfStale(out);
  });
  checkCounts(0, 0, 1, 8 * I);
  CHECK(values(out) == std::vector<int>(8, 5));
}

TEST_CASE("a woBeyond argument the range covers in part is copied in first",
          "[writeonly]") {
  // The kernel may store past its range (`out[kc.x] = 1; out[kc.x + half] =
  // 2;`): the device copy must be whole before it.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(8);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(5),
              ferry::woBeyond(out), 9);
    checkCounts(1, 8 * I, 0, 0); // the whole buffer, once
    CHECK(out.deviceValid());
    CHECK_FALSE(out.hostValid());
    cc.fromDeviceIfStale(out);
  });
  checkCounts(1, 8 * I, 1, 8 * I);
  CHECK(values(out) == (std::vector<int>{9, 9, 9, 9, 9, 5, 6, 7}));
}

TEST_CASE("a wo argument the range covers in part is written in that part "
          "alone",
          "[writeonly]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(8);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(5), ferry::wo(out),
              9);
    checkCounts(0, 0, 0, 0); // nothing copied in
    CHECK(stale(out, Host) == (Pieces{{0, 5}}));
    CHECK(stale(out, Device) == (Pieces{{5, 8}})); // never copied there
    cc.fromDeviceIfStale(out); // the five written elements
  });
  checkCounts(0, 0, 1, 5 * I);
  CHECK(values(out) == (std::vector<int>{9, 9, 9, 9, 9, 5, 6, 7}));
}

TEST_CASE("an unconditional copy never carries data older than the "
          "destination's",
          "[writeonly]") {
  // A plan that copies out the whole buffer after a kernel wrote part of it
  // (as a plan from before per-range validity does): the elements the
  // kernel left alone were never on the device, so they are left out.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(8);
  ferry::Buffer<int> x = iota(4);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(4), ferry::wo(out),
              9);
    cc.fromDevice(out); // [0, 4) alone
    checkCounts(0, 0, 1, 4 * I);
    cc.toDevice(x);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(x));
    cc.toDevice(x); // the host holds nothing newer: nothing to copy
    checkCounts(1, 4 * I, 1, 4 * I);
    cc.fromDevice(x);
  });
  checkCounts(1, 4 * I, 2, 8 * I);
  CHECK(values(out) == (std::vector<int>{9, 9, 9, 9, 4, 5, 6, 7}));
  CHECK(values(x) == (std::vector<int>{1, 2, 3, 4}));
}

TEST_CASE("a launch that reads what a partial wo left stale copies it in "
          "first",
          "[writeonly]") {
  // The rewriter plans the buffer as the device's after a wo launch;
  // a kernel reading it gets the stale rest, and only that, first.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(8);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(3), ferry::wo(out),
              9);
    checkCounts(0, 0, 0, 0);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(8),
              ferry::rw(out));
    checkCounts(1, 5 * I, 0, 0); // elements 3 to 7
    cc.fromDevice(out);
  });
  checkCounts(1, 5 * I, 1, 8 * I);
  CHECK(values(out) == (std::vector<int>{10, 10, 10, 4, 5, 6, 7, 8}));
}

TEST_CASE("a device read after a partial wo copies in only what is stale",
          "[writeonly]") {
  // What a plan that knows about per-range validity writes: a guarded copy
  // in before the next kernel reads the whole buffer.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(8);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(3), ferry::wo(out),
              9);
    cc.toDeviceIfStale(out); // elements 3 to 7
    checkCounts(1, 5 * I, 0, 0);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(8),
              ferry::rw(out));
    cc.fromDeviceIfStale(out);
  });
  checkCounts(1, 5 * I, 1, 8 * I);
  CHECK(values(out) == (std::vector<int>{10, 10, 10, 4, 5, 6, 7, 8}));
}

TEST_CASE("a pristine buffer partly written by a kernel fills the rest",
          "[writeonly]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out(8, 4); // still as made: the host holds 4s
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(2), ferry::wo(out),
              1);
    cc.toDeviceIfStale(out); // [2, 8): still 4s on the host, so a fill
    CHECK(ferry::statistics().fillCount == 1);
    CHECK(ferry::statistics().fillBytes == 6 * I);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(8),
              ferry::rw(out));
    cc.fromDeviceIfStale(out);
  });
  checkCounts(1, 6 * I, 1, 8 * I);
  CHECK(values(out) == (std::vector<int>{2, 2, 5, 5, 5, 5, 5, 5}));
}

TEST_CASE("a wo bound below the range's count is a partial overwrite",
          "[writeonly]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();

  SECTION("a positive bound") {
    ferry::Buffer<int> out = iota(8);
    ferry::resetStatistics();
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(kernelsSource, "fill_below", fill_below, ferry::Range(8),
                ferry::wo(out, 3L), 4, 3);
      cc.fromDeviceIfStale(out);
    });
    checkCounts(0, 0, 1, 3 * I);
    CHECK(values(out) == (std::vector<int>{4, 4, 4, 3, 4, 5, 6, 7}));
  }
  SECTION("a negative bound covers nothing") {
    ferry::Buffer<int> out = iota(4);
    ferry::resetStatistics();
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(kernelsSource, "fill_below", fill_below, ferry::Range(4),
                ferry::wo(out, -2), 4, -2);
      CHECK(out.hostValid()); // nothing written
      cc.fromDeviceIfStale(out);
    });
    checkCounts(0, 0, 0, 0);
    CHECK(values(out) == (std::vector<int>{0, 1, 2, 3}));
  }
}

TEST_CASE("a partial wo over a valid device copy copies nothing",
          "[writeonly]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(6);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(out);
    cc.launch(kernelsSource, "fill", fill, ferry::Range(2), ferry::wo(out),
              1);
    // The device copy is the latest after the first launch.
    cc.launch(kernelsSource, "fill", fill, ferry::Range(1), ferry::wo(out),
              2);
    checkCounts(1, 6 * I, 0, 0);
    CHECK(out.deviceValid());
    CHECK(stale(out, Host) == (Pieces{{0, 2}}));
    cc.fromDeviceIfStale(out); // the two elements the kernels wrote
  });
  checkCounts(1, 6 * I, 1, 2 * I);
  CHECK(values(out) == (std::vector<int>{2, 1, 2, 3, 4, 5}));
}

TEST_CASE("a partial wo in a new compute keeps the host's latest data",
          "[writeonly]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(4);
  auto body = [&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(2), ferry::wo(out),
              8);
    cc.fromDeviceIfStale(out);
  };
  ferry::resetStatistics();
  acc.compute(body);
  checkCounts(0, 0, 1, 2 * I);
  CHECK(out.hostValid());

  out[3] = 42; // between computes: Ferry cannot see it
  ferry::resetStatistics();
  acc.compute(body);
  checkCounts(0, 0, 1, 2 * I);
  CHECK(values(out) == (std::vector<int>{8, 8, 2, 42}));
}

TEST_CASE("a wo argument over an empty range changes no validity",
          "[writeonly]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(4);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "fill", fill, ferry::Range(0), ferry::wo(out),
              5);
    checkCounts(0, 0, 0, 0);
    CHECK(out.hostValid()); // nothing ran, nothing was written
    CHECK_FALSE(out.deviceValid());
    // A kernel reading it next needs its guarded copy in.
    cc.toDeviceIfStale(out);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(out));
    cc.fromDeviceIfStale(out);
  });
  checkCounts(1, 4 * I, 1, 4 * I);
  CHECK(ferry::statistics().dispatches == 2);
  CHECK(values(out) == (std::vector<int>{1, 2, 3, 4}));
}

TEST_CASE("every policy keeps what a partial wo leaves alone",
          "[writeonly]") {
  // What the rewriter would produce for
  //   cc.dispatch(square, Range(N), a, N);
  //   cc.dispatch(fill, Range(covered), out, 9);   // out: FERRY_WO
  //   cc.dispatch(fill_below, Range(N), out2, 3, bound);
  auto rewritten = [](ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                      ferry::Buffer<int> &out, ferry::Buffer<int> &out2,
                      int covered, int bound) {
    cc.toDeviceIfStale(a);
    cc.launch(kernelsSource, "square", square, ferry::Range(N), ferry::rw(a),
              N);
    cc.launch(kernelsSource, "fill", fill, ferry::Range(covered),
              ferry::wo(out), 9);
    cc.launch(kernelsSource, "fill_below", fill_below, ferry::Range(N),
              ferry::wo(out2, bound), 3, bound);
    cc.fromDeviceIfStale(a);
    cc.fromDeviceIfStale(out);
    cc.fromDeviceIfStale(out2);
  };
  auto reference = [](ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                      ferry::Buffer<int> &out, ferry::Buffer<int> &out2,
                      int covered, int bound) {
    cc.dispatch(square, ferry::Range(N), a, N);
    cc.dispatch(fill, ferry::Range(covered), out, 9);
    cc.dispatch(fill_below, ferry::Range(N), out2, 3, bound);
  };
  struct Result {
    std::vector<float> a;
    std::vector<int> out, out2;
    Counts counts;
  };
  auto run = [&](ferry::Accelerator &acc, bool device, int covered,
                 int bound) {
    ferry::Buffer<float> a(N, 1.5f);
    handedOut(a);
    ferry::Buffer<int> out = iota(N);
    ferry::Buffer<int> out2 = iota(N);
    ferry::resetStatistics();
    acc.compute([&](ferry::ComputeContext &cc) {
      if (device)
        rewritten(cc, a, out, out2, covered, bound);
      else
        reference(cc, a, out, out2, covered, bound);
    });
    return Result{std::vector<float>(a.begin(), a.end()), values(out),
                  values(out2), counts()};
  };

  struct Case {
    ferry::Policy policy;
    const char *name;
    int covered, bound;
    std::uint64_t to, toElements, from, fromElements;
  };
  const Case cases[] = {
      // Full coverage: a in; a, out, out2 out.
      {ferry::Policy::Planned, "planned", N, N, 1, N, 3, 3 * N},
      // Partial coverage: a in; a, and the 5 and 2 elements written out.
      {ferry::Policy::Planned, "planned", 5, 2, 1, N, 3, N + 5 + 2},
      // Kernel: a in and out; out and out2 out, and in when partial.
      {ferry::Policy::Kernel, "kernel", N, N, 1, N, 3, 3 * N},
      {ferry::Policy::Kernel, "kernel", 5, 2, 3, 3 * N, 3, 3 * N},
      // Naive: every argument in and out, whatever the coverage.
      {ferry::Policy::Naive, "naive", N, N, 3, 3 * N, 3, 3 * N},
      {ferry::Policy::Naive, "naive", 5, 2, 3, 3 * N, 3, 3 * N},
  };
  ferry::Accelerator referenceAcc;
  for (const Case &c : cases) {
    INFO("policy " << c.name << ", covered " << c.covered << ", bound "
                   << c.bound);
    const Result expected = run(referenceAcc, false, c.covered, c.bound);
    CHECK(expected.out[N - 1] == (c.covered < N ? N - 1 : 9));
    ScopedPolicy policy(c.policy);
    const Result got = run(cpuAccelerator(), true, c.covered, c.bound);
    CHECK(got.a == expected.a);
    CHECK(got.out == expected.out);
    CHECK(got.out2 == expected.out2);
    CHECK(got.counts.to == c.to);
    CHECK(got.counts.toBytes == c.toElements * I);
    CHECK(got.counts.from == c.from);
    CHECK(got.counts.fromBytes == c.fromElements * I);
  }
}

TEST_CASE("a grid wo is a prefix only when its columns are its width",
          "[writeonly]") {
  // coords writes out[y * nx + x] for the range's nx x ny: a grid of
  // width nx, rows ny. The buffer is 3 rows of 4.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> expected = iota(12);
  ferry::Buffer<int> out = iota(12);
  auto run = [&](std::size_t nx, std::size_t ny, ferry::GridBound grid) {
    ferry::Accelerator referenceAcc;
    referenceAcc.compute([&](ferry::ComputeContext &cc) {
      cc.dispatch(coords, ferry::Range(nx, ny), expected);
    });
    ferry::resetStatistics();
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(kernelsSource, "coords", coords, ferry::Range(nx, ny),
                ferry::wo(out, grid));
      cc.fromDeviceIfStale(out);
    });
    CHECK(values(out) == values(expected));
  };
  SECTION("2 whole rows of 4: [0, 8) alone, nothing copied in") {
    run(4, 2, ferry::grid(0, ferry::unbounded, 4, 1, ferry::unbounded));
    checkCounts(0, 0, 1, 8 * I);
  }
  SECTION("3 columns of a width of 4 leave gaps: copied in first, whole") {
    run(3, 2, ferry::grid(0, ferry::unbounded, 4, 1, ferry::unbounded));
    checkCounts(1, 12 * I, 1, 12 * I);
  }
  SECTION("4 columns of a width of 3 write past 2 rows: copied in, whole") {
    // Covered says 6, but the kernel writes 8 elements.
    run(4, 2, ferry::grid(0, ferry::unbounded, 3, 1, ferry::unbounded));
    checkCounts(1, 12 * I, 1, 12 * I);
    CHECK(out[7] == 103); // past the 6 covered: not lost
  }
}

TEST_CASE("a bounded wo runs on the host device without transfers",
          "[writeonly]") {
  ScopedEnv device("FERRY_DEVICE", "host");
  ferry::Accelerator acc;
  ferry::Buffer<int> out = iota(6);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch("not OpenCL C", "fill_below", fill_below, ferry::Range(6),
              ferry::wo(out, 2), 7, 2);
    cc.fromDeviceIfStale(out);
  });
  checkCounts(0, 0, 0, 0);
  CHECK(values(out) == (std::vector<int>{7, 7, 2, 3, 4, 5}));
}

namespace {

// One column per work-item: the range has `cols` work-items, the buffer
// rows * cols elements, all of them written. Only FERRY_WO can say so.
constexpr char columnsSource[] = R"CLC(
__kernel void fill_columns(__global int *out, int rows, int v) {
  int x = get_global_id(0), cols = get_global_size(0);
  for (int r = 0; r < rows; ++r)
    out[r * cols + x] = v + r * cols + x;
}
)CLC";

void fill_columns(ferry::KernelContext kc, int *out, int rows, int v) {
  for (int r = 0; r < rows; ++r)
    out[r * kc.maxX + kc.x] = v + r * kc.maxX + kc.x;
}

constexpr int Rows = 3, Cols = 4;

} // namespace

TEST_CASE("woDeclared is an unbounded, declared wo", "[writeonly]") {
  ferry::Buffer<int> b(4);
  CHECK(ferry::woDeclared(b).access() == ferry::Access::WO);
  CHECK(ferry::woDeclared(b).bound() ==
        std::numeric_limits<std::size_t>::max());
  CHECK(ferry::woDeclared(b).declared());
  CHECK_FALSE(ferry::wo(b).declared());
  CHECK_FALSE(ferry::wo(b, 2).declared());
}

TEST_CASE("a declared wo writing a column per work-item is never copied in "
          "under planned",
          "[writeonly]") {
  ferry::Buffer<int> expected = iota(Rows * Cols);
  ferry::Accelerator referenceAcc;
  referenceAcc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(fill_columns, ferry::Range(Cols), expected, Rows, 100);
  });
  REQUIRE(values(expected)[Rows * Cols - 1] == 100 + Rows * Cols - 1);

  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out = iota(Rows * Cols);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(columnsSource, "fill_columns", fill_columns, ferry::Range(Cols),
              ferry::woDeclared(out), Rows, 100);
    checkCounts(0, 0, 0, 0); // 4 work-items, 12 elements: no copy in
    CHECK(out.deviceValid());
    CHECK_FALSE(out.hostValid());
    cc.fromDeviceIfStale(out);
  });
  checkCounts(0, 0, 1, Rows * Cols * I);
  CHECK(values(out) == values(expected));
  // (An inferred ferry::wo(out) would say that the kernel writes the 4
  // elements its range addresses and nothing else, which this one does not:
  // the runtime would bring back those 4 alone. The planner writes wo only
  // for a kernel whose stores stay within what its range covers.)
}

TEST_CASE("a declared wo under the other policies and devices copies as wo",
          "[writeonly]") {
  ferry::Buffer<int> expected = iota(Rows * Cols);
  ferry::Accelerator referenceAcc;
  referenceAcc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(fill_columns, ferry::Range(Cols), expected, Rows, 7);
  });
  auto run = [&](ferry::Accelerator &acc) {
    ferry::Buffer<int> out = iota(Rows * Cols);
    ferry::resetStatistics();
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(columnsSource, "fill_columns", fill_columns,
                ferry::Range(Cols), ferry::woDeclared(out), Rows, 7);
      cc.fromDeviceIfStale(out);
    });
    CHECK(values(out) == values(expected));
  };
  SECTION("kernel: copied in, as the whole buffer is copied out") {
    ScopedPolicy kernel(ferry::Policy::Kernel);
    run(cpuAccelerator());
    checkCounts(1, Rows * Cols * I, 1, Rows * Cols * I);
  }
  SECTION("naive: every argument in and out") {
    ScopedPolicy naive(ferry::Policy::Naive);
    run(cpuAccelerator());
    checkCounts(1, Rows * Cols * I, 1, Rows * Cols * I);
  }
  SECTION("the host device: no transfers") {
    ScopedEnv device("FERRY_DEVICE", "host");
    ferry::Accelerator host;
    run(host);
    checkCounts(0, 0, 0, 0);
  }
}
