// The three transfer policies compute the same results, with the expected
// transfers each.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ferry_test;

namespace {

constexpr int N = 64;
constexpr std::uint64_t B = N * sizeof(float);

ferry::Buffer<float> input() {
  ferry::Buffer<float> a(N);
  for (int i = 0; i < N; ++i)
    a[i] = 1.0f + 0.5f * static_cast<float>(i % 3); // powers stay exact
  return a;
}

// What the rewriter would produce for:
//   for (int i = 0; i < 3; ++i) cc.dispatch(square, Range(N), a, N);
//   cc.dispatch(scale, Range(N), a, b, 2.0f);
void rewrittenProgram(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                      ferry::Buffer<float> &b) {
  cc.toDeviceIfStale(a);
  for (int i = 0; i < 3; ++i)
    cc.launch(kernelsSource, "square", square, ferry::Range(N), ferry::rw(a),
              N);
  cc.launch(kernelsSource, "scale", scale, ferry::Range(N), ferry::ro(a),
            ferry::wo(b), 2.0f);
  cc.fromDeviceIfStale(a);
  cc.fromDeviceIfStale(b);
}

void referenceProgram(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                      ferry::Buffer<float> &b) {
  for (int i = 0; i < 3; ++i)
    cc.dispatch(square, ferry::Range(N), a, N);
  cc.dispatch(scale, ferry::Range(N), a, b, 2.0f);
}

struct Result {
  std::vector<float> a, b;
  ferry::Statistics stats;
};

Result run(ferry::Accelerator &acc, bool rewritten) {
  ferry::Buffer<float> a = input();
  ferry::Buffer<float> b(N);
  handedOut(b);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    if (rewritten)
      rewrittenProgram(cc, a, b);
    else
      referenceProgram(cc, a, b);
  });
  return Result{std::vector<float>(a.begin(), a.end()),
                std::vector<float>(b.begin(), b.end()), ferry::statistics()};
}

} // namespace

TEST_CASE("every policy computes the reference results", "[policy]") {
  ferry::Accelerator reference;
  const Result expected = run(reference, false);
  CHECK(expected.a[1] == 1.5f * 1.5f * 1.5f * 1.5f * 1.5f * 1.5f * 1.5f * 1.5f);
  CHECK(expected.b[2] == 2.0f * 256.0f);
  CHECK(expected.stats.dispatches == 4);

  struct Case {
    ferry::Policy policy;
    const char *name;
    std::uint64_t to, from;
  };
  const Case cases[] = {
      {ferry::Policy::Planned, "planned", 1, 2},
      // square: rw in+out, 3 times; scale: a in, b out.
      {ferry::Policy::Kernel, "kernel", 4, 4},
      // square: a in+out, 3 times; scale: a, b in and out.
      {ferry::Policy::Naive, "naive", 5, 5},
  };
  for (const Case &c : cases) {
    INFO("policy " << c.name);
    ScopedPolicy policy(c.policy);
    const Result got = run(cpuAccelerator(), true);
    CHECK(got.a == expected.a);
    CHECK(got.b == expected.b);
    CHECK(got.stats.policy == c.name);
    CHECK(got.stats.dispatches == 4);
    CHECK(got.stats.toDeviceCount == c.to);
    CHECK(got.stats.toDeviceBytes == c.to * B);
    CHECK(got.stats.fromDeviceCount == c.from);
    CHECK(got.stats.fromDeviceBytes == c.from * B);
  }
}

TEST_CASE("FERRY_POLICY is validated", "[policy]") {
  ferry::detail::forgetPolicyForTesting();
  {
    ScopedEnv bad("FERRY_POLICY", "eager");
    try {
      ferry::Accelerator acc;
      FAIL("an unknown FERRY_POLICY was accepted");
    } catch (const ferry::Error &e) {
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Contains("FERRY_POLICY"));
      CHECK_THAT(what, Catch::Contains("eager"));
      CHECK_THAT(what, Catch::Contains("planned, kernel, naive"));
    }
  }
  ferry::detail::forgetPolicyForTesting();
  {
    ScopedEnv naive("FERRY_POLICY", "naive");
    ferry::Accelerator acc;
    CHECK(ferry::statistics().policy == "naive");
  }
  ferry::setPolicyForTesting(ferry::Policy::Planned);
  CHECK(ferry::statistics().policy == "planned");
}
