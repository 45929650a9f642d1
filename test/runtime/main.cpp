#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "Internal.hpp"

int main(int argc, char *argv[]) {
  // The tests check the exact stale pieces each transfer moves; the one
  // test of bridging small gaps turns it back on (SubRangeTests.cpp).
  ferry::detail::bridgedGapBytes() = 0;
  return Catch::Session().run(argc, argv);
}
