// FERRY_FAST_MATH=1 (issue 31, an extension): programs are built with
// -cl-fast-relaxed-math, which OpenCL C makes visible to the program as
// __FAST_RELAXED_MATH__. The ctests runtime.fastmath_on and _off run the
// two cases with the variable set and unset.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

using namespace ferry_test;

namespace {

constexpr char fastMathSource[] = R"CLC(
__kernel void fastMathOn(__global int *out) {
#ifdef __FAST_RELAXED_MATH__
  out[get_global_id(0)] = 1;
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

bool fastMathRequested() {
  const char *v = std::getenv("FERRY_FAST_MATH");
  return v && std::strcmp(v, "1") == 0;
}

} // namespace

TEST_CASE("FERRY_FAST_MATH=1 builds programs with fast relaxed math",
          "[fastmath_on]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  REQUIRE(fastMathRequested());
  CHECK(builtWithFastMath() == 1);
}

TEST_CASE("without FERRY_FAST_MATH programs keep IEEE math",
          "[fastmath_off]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  REQUIRE_FALSE(fastMathRequested());
  CHECK(builtWithFastMath() == 0);
}
