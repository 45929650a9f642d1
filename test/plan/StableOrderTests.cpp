// model/StableOrder.h: Ferry's stable sort and partition (in place of
// libstdc++'s, whose temporary buffer clang++ warns about) keep equal
// elements in the order they came, as the planner's step order, the lint's
// finding order and the host events' reads-first order rely on.
#include "model/StableOrder.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

using ferry::stablePartition;
using ferry::stableSort;

TEST_CASE("stableSort sorts by the key and keeps ties in order",
          "[plan][stable-order]") {
  // Keys with many ties, the second member saying where each came from.
  std::vector<std::pair<int, int>> Items;
  for (int I = 0; I < 200; ++I)
    Items.push_back({(I * 7919) % 5, I});
  stableSort(Items, [](const std::pair<int, int> &A,
                       const std::pair<int, int> &B) {
    return A.first < B.first;
  });
  REQUIRE(Items.size() == 200);
  for (size_t I = 1; I < Items.size(); ++I) {
    INFO("position " << I);
    REQUIRE(Items[I - 1].first <= Items[I].first);
    if (Items[I - 1].first == Items[I].first)
      REQUIRE(Items[I - 1].second < Items[I].second);
  }
}

TEST_CASE("stableSort takes a descending order and move-only elements",
          "[plan][stable-order]") {
  std::vector<std::unique_ptr<std::string>> Items;
  for (const char *S : {"b1", "a1", "b2", "c1", "a2", "c2", "b3"})
    Items.push_back(std::make_unique<std::string>(S));
  stableSort(Items, [](const std::unique_ptr<std::string> &A,
                       const std::unique_ptr<std::string> &B) {
    return (*A)[0] > (*B)[0];
  });
  std::vector<std::string> Got;
  for (const auto &P : Items)
    Got.push_back(*P);
  REQUIRE(Got == std::vector<std::string>{"c1", "c2", "b1", "b2", "b3", "a1",
                                          "a2"});
  std::vector<std::unique_ptr<std::string>> None;
  stableSort(None, [](const auto &, const auto &) { return false; });
  REQUIRE(None.empty());
}

TEST_CASE("stablePartition moves matches first from a position, both groups "
          "in order",
          "[plan][stable-order]") {
  std::vector<std::string> Items{"keep", "w1", "r1", "w2", "r2", "r3", "w3"};
  stablePartition(Items, 1,
                  [](const std::string &S) { return S[0] == 'r'; });
  REQUIRE(Items == std::vector<std::string>{"keep", "r1", "r2", "r3", "w1",
                                            "w2", "w3"});
  // Nothing after First, or nothing matching, or everything: unchanged.
  std::vector<std::string> Same{"r1", "w1"};
  stablePartition(Same, 2, [](const std::string &) { return true; });
  REQUIRE(Same == std::vector<std::string>{"r1", "w1"});
  stablePartition(Same, 0, [](const std::string &) { return false; });
  REQUIRE(Same == std::vector<std::string>{"r1", "w1"});
  stablePartition(Same, 0, [](const std::string &) { return true; });
  REQUIRE(Same == std::vector<std::string>{"r1", "w1"});
}
