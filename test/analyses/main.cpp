// Catch2's runner, kept apart so that it builds with RTTI.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
