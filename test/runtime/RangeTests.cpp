// ferry::detail::RangeSet, the interval set behind per-range validity:
// merging, splitting, the pieces within a range, and a long random run
// against a bit per offset.
#include <ferry/ranges.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <utility>
#include <vector>

using ferry::detail::RangeSet;

namespace {

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

Pairs intervals(const RangeSet &s) {
  Pairs out;
  for (const RangeSet::Interval &i : s.intervals())
    out.emplace_back(i.first, i.last);
  return out;
}

Pairs within(const RangeSet &s, std::size_t first, std::size_t last) {
  Pairs out;
  s.forEachWithin(first, last,
                  [&](std::size_t a, std::size_t b) { out.emplace_back(a, b); });
  return out;
}

} // namespace

TEST_CASE("RangeSet merges what overlaps or touches", "[ranges]") {
  RangeSet s;
  CHECK(s.empty());
  s.add(10, 20);
  s.add(30, 40);
  CHECK(intervals(s) == (Pairs{{10, 20}, {30, 40}}));
  s.add(20, 25); // touches [10, 20)
  CHECK(intervals(s) == (Pairs{{10, 25}, {30, 40}}));
  s.add(5, 10); // touches from below
  CHECK(intervals(s) == (Pairs{{5, 25}, {30, 40}}));
  s.add(24, 31); // bridges both
  CHECK(intervals(s) == (Pairs{{5, 40}}));
  s.add(0, 100); // swallows everything
  CHECK(intervals(s) == (Pairs{{0, 100}}));
  s.add(7, 7); // empty: nothing
  s.add(9, 3);
  CHECK(intervals(s) == (Pairs{{0, 100}}));
  s.add(200, 210);
  s.add(150, 160);
  CHECK(intervals(s) == (Pairs{{0, 100}, {150, 160}, {200, 210}}));
  s.clear();
  CHECK(s.empty());
}

TEST_CASE("RangeSet removes, splitting what reaches past both ends",
          "[ranges]") {
  RangeSet s;
  s.add(0, 100);
  s.remove(40, 60); // a hole: one interval becomes two
  CHECK(intervals(s) == (Pairs{{0, 40}, {60, 100}}));
  s.remove(30, 70); // cuts the ends of both
  CHECK(intervals(s) == (Pairs{{0, 30}, {70, 100}}));
  s.remove(0, 30); // exactly one interval
  CHECK(intervals(s) == (Pairs{{70, 100}}));
  s.remove(100, 200); // touches, does not overlap
  s.remove(10, 70);
  CHECK(intervals(s) == (Pairs{{70, 100}}));
  s.add(0, 10);
  s.add(20, 30);
  s.add(40, 50);
  s.remove(5, 45); // three intervals, cut at both ends
  CHECK(intervals(s) == (Pairs{{0, 5}, {45, 50}, {70, 100}}));
  s.remove(0, 1000);
  CHECK(s.empty());
  s.remove(3, 4); // from nothing
  CHECK(s.empty());
}

TEST_CASE("RangeSet covers and lists the pieces within a range",
          "[ranges]") {
  RangeSet s;
  s.add(10, 20);
  s.add(30, 40);
  CHECK(s.covers(10, 20));
  CHECK(s.covers(12, 18));
  CHECK_FALSE(s.covers(10, 21));
  CHECK_FALSE(s.covers(15, 35));
  CHECK(s.covers(50, 50)); // empty
  CHECK(within(s, 0, 100) == (Pairs{{10, 20}, {30, 40}}));
  CHECK(within(s, 15, 35) == (Pairs{{15, 20}, {30, 35}}));
  CHECK(within(s, 20, 30).empty());
  CHECK(within(s, 39, 1000) == (Pairs{{39, 40}}));
  CHECK(within(s, 12, 12).empty());
}

TEST_CASE("RangeSet agrees with a bit per offset over random operations",
          "[ranges]") {
  constexpr std::size_t n = 257;
  std::mt19937 random(22); // fixed: the same run every time
  std::uniform_int_distribution<std::size_t> offset(0, n);
  RangeSet s;
  std::vector<bool> model(n, false);
  for (int step = 0; step < 20000; ++step) {
    std::size_t a = offset(random), b = offset(random);
    if (a > b)
      std::swap(a, b);
    if (random() % 2) {
      s.add(a, b);
      for (std::size_t i = a; i < b; ++i)
        model[i] = true;
    } else {
      s.remove(a, b);
      for (std::size_t i = a; i < b; ++i)
        model[i] = false;
    }
    // The intervals are exactly the runs of set bits: sorted, disjoint,
    // never touching.
    Pairs runs;
    for (std::size_t i = 0; i < n;) {
      if (!model[i]) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < n && model[j])
        ++j;
      runs.emplace_back(i, j);
      i = j;
    }
    REQUIRE(intervals(s) == runs);
    std::size_t c = offset(random), d = offset(random);
    if (c > d)
      std::swap(c, d);
    bool all = true;
    for (std::size_t i = c; i < d; ++i)
      all = all && model[i];
    REQUIRE(s.covers(c, d) == all);
  }
}
