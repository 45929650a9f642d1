// A set of offsets kept as sorted, disjoint half-open intervals: what a
// buffer remembers of the parts of it that are stale on the host or on the
// device. Intervals, not fixed chunks: they are exact (a one-element read
// back stays one element), and the operations the runtime does cost no
// more than a chunk bitmap's for the handful of pieces a plan makes
// (docs/validity-ranges.md measures both).
//
// Included by <ferry/ferry.hpp>; needs nothing but the standard library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ferry {
namespace detail {

class RangeSet {
public:
  struct Interval {
    std::size_t first, last; // [first, last), first < last
  };

  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }
  // The intervals, in order; no two overlap or touch.
  const std::vector<Interval> &intervals() const { return items_; }

  // Whether [first, last) lies in the set (an empty range always does).
  bool covers(std::size_t first, std::size_t last) const {
    if (first >= last)
      return true;
    auto it = firstEndingAfter(first);
    return it != items_.end() && it->first <= first && it->last >= last;
  }

  // Adds [first, last), merging it with the intervals it overlaps or
  // touches.
  void add(std::size_t first, std::size_t last) {
    if (first >= last)
      return;
    // The first interval that ends at or after `first` (it touches), and
    // the first that starts after `last`: those between merge.
    auto lo = std::lower_bound(
        items_.begin(), items_.end(), first,
        [](const Interval &i, std::size_t v) { return i.last < v; });
    auto hi = std::upper_bound(
        lo, items_.end(), last,
        [](std::size_t v, const Interval &i) { return v < i.first; });
    if (lo == hi) {
      items_.insert(lo, Interval{first, last});
      return;
    }
    lo->first = std::min(lo->first, first);
    lo->last = std::max((hi - 1)->last, last);
    items_.erase(lo + 1, hi);
  }

  // Removes [first, last), splitting an interval that reaches past it on
  // both sides.
  void remove(std::size_t first, std::size_t last) {
    if (first >= last)
      return;
    auto lo = firstEndingAfter(first);
    auto hi = std::lower_bound(
        lo, items_.end(), last,
        [](const Interval &i, std::size_t v) { return i.first < v; });
    if (lo == hi)
      return;
    Interval kept[2];
    std::size_t count = 0;
    if (lo->first < first)
      kept[count++] = Interval{lo->first, first};
    if ((hi - 1)->last > last)
      kept[count++] = Interval{last, (hi - 1)->last};
    const std::size_t overlapping = static_cast<std::size_t>(hi - lo);
    if (count > overlapping) { // one interval split in two
      *lo = kept[0];
      items_.insert(lo + 1, kept[1]);
      return;
    }
    std::copy(kept, kept + count, lo);
    items_.erase(lo + count, hi);
  }

  // Calls f(first, last) for each piece of the set inside [first, last),
  // in order (none for an empty range).
  template <class F>
  void forEachWithin(std::size_t first, std::size_t last, F &&f) const {
    if (first >= last)
      return;
    for (auto it = firstEndingAfter(first);
         it != items_.end() && it->first < last; ++it)
      f(std::max(it->first, first), std::min(it->last, last));
  }

private:
  // The first interval that ends after `offset` (contains it, or lies
  // wholly after it).
  std::vector<Interval>::const_iterator
  firstEndingAfter(std::size_t offset) const {
    return std::lower_bound(
        items_.begin(), items_.end(), offset,
        [](const Interval &i, std::size_t v) { return i.last <= v; });
  }
  std::vector<Interval>::iterator firstEndingAfter(std::size_t offset) {
    return std::lower_bound(
        items_.begin(), items_.end(), offset,
        [](const Interval &i, std::size_t v) { return i.last <= v; });
  }

  std::vector<Interval> items_;
};

} // namespace detail
} // namespace ferry
