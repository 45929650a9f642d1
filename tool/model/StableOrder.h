#pragma once
// std::stable_sort and std::stable_partition, for Ferry's vectors, without
// libstdc++'s temporary buffer.
//
// libstdc++ 12 (Debian 12's) builds both on std::get_temporary_buffer, which
// C++17 deprecates. g++ does not warn inside its own headers, but clang++ 19
// reports the deprecation at every instantiation from Ferry's code
// (-Wdeprecated-declarations, in the demo's build), and newer libstdc++
// releases drop the call. These give the same result -- elements in order,
// ties kept in the order they came -- with std::sort over positions, the
// positions breaking ties so that the order sorted by is total.

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace ferry {

/// Sorts `Items` by `Less` (a strict weak order), keeping equal elements in
/// their order: what std::stable_sort does.
template <typename T, typename LessThan>
void stableSort(std::vector<T> &Items, LessThan Less) {
  std::vector<std::size_t> Positions(Items.size());
  std::iota(Positions.begin(), Positions.end(), std::size_t(0));
  std::sort(Positions.begin(), Positions.end(),
            [&](std::size_t A, std::size_t B) {
              if (Less(Items[A], Items[B]))
                return true;
              if (Less(Items[B], Items[A]))
                return false;
              return A < B;
            });
  std::vector<T> Sorted;
  Sorted.reserve(Items.size());
  for (std::size_t P : Positions)
    Sorted.push_back(std::move(Items[P]));
  Items = std::move(Sorted);
}

/// Moves the elements of `Items` from position `First` on that satisfy
/// `Pred` before those that do not, each group in its order: what
/// std::stable_partition does on that range.
template <typename T, typename Predicate>
void stablePartition(std::vector<T> &Items, std::size_t First,
                     Predicate Pred) {
  std::vector<T> Rest;
  std::size_t To = First;
  for (std::size_t From = First; From < Items.size(); ++From) {
    if (Pred(Items[From])) {
      if (To != From)
        Items[To] = std::move(Items[From]);
      ++To;
    } else {
      Rest.push_back(std::move(Items[From]));
    }
  }
  std::move(Rest.begin(), Rest.end(), Items.begin() + To);
}

} // namespace ferry
