// FERRY_FAST_MATH=1 (issue 31, an extension): programs are built with
// -cl-fast-relaxed-math, which OpenCL C makes visible to the program as
// __FAST_RELAXED_MATH__; FERRY_FAST_MATH=finite with -cl-finite-math-only
// and its two safe companions, which the compiler shows as
// __FINITE_MATH_ONLY__ without __FAST_RELAXED_MATH__. The ctests
// runtime.fastmath_on, _off, _finite and _unknown run the cases with the
// variable at each value.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

using namespace ferry_test;

namespace {

constexpr char fastMathSource[] = R"CLC(
__kernel void fastMathOn(__global int *out) {
#if defined(__FAST_RELAXED_MATH__)
  out[get_global_id(0)] = 1;
#elif defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
  out[get_global_id(0)] = 2;
#else
  out[get_global_id(0)] = 0;
#endif
}
)CLC";

// What the reference execution would run: it never has fast math.
void fastMathOn(ferry::KernelContext kc, int *out) { out[kc.x] = 0; }

int builtWithFastMath() {
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> flag(1, -1);
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(fastMathSource, "fastMathOn", fastMathOn, ferry::Range(1),
              ferry::wo(flag));
    cc.fromDevice(flag);
  });
  return flag[0];
}

bool fastMathRequested(const char *level) {
  const char *v = std::getenv("FERRY_FAST_MATH");
  return v && std::strcmp(v, level) == 0;
}

} // namespace

TEST_CASE("FERRY_FAST_MATH=1 builds programs with fast relaxed math",
          "[fastmath_on]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  REQUIRE(fastMathRequested("1"));
  CHECK(builtWithFastMath() == 1);
}

TEST_CASE("without FERRY_FAST_MATH programs keep IEEE math",
          "[fastmath_off]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  REQUIRE_FALSE(fastMathRequested("1"));
  REQUIRE_FALSE(fastMathRequested("finite"));
  CHECK(builtWithFastMath() == 0);
}

TEST_CASE("FERRY_FAST_MATH=finite builds programs finite-math-only, not "
          "relaxed",
          "[fastmath_finite]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  REQUIRE(fastMathRequested("finite"));
  CHECK(builtWithFastMath() == 2);
}

TEST_CASE("an unknown FERRY_FAST_MATH value fails the compute with the "
          "accepted values",
          "[fastmath_unknown]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  REQUIRE(fastMathRequested("fastest"));
  CHECK_THROWS_WITH(builtWithFastMath(),
                    Catch::Contains("FERRY_FAST_MATH: unknown value 'fastest'") &&
                        Catch::Contains("accepted values: 1, finite, 0"));
}
