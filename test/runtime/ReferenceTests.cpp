// The reference execution: ComputeContext::dispatch runs kernels on the host.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <tuple>
#include <vector>

using namespace ferry_test;

namespace {

std::vector<std::tuple<int, int, int>> visits;
ferry::KernelContext lastContext;

void record(ferry::KernelContext kc) {
  visits.emplace_back(kc.x, kc.y, kc.z);
  lastContext = kc;
}

void axpy(ferry::KernelContext kc, float a, const float *x, float *y) {
  y[kc.x] = a * x[kc.x] + y[kc.x];
}

struct Params {
  int offset;
  float factor;
};
void withStruct(ferry::KernelContext kc, Params p, int *out) {
  out[kc.x] = static_cast<int>(static_cast<float>(kc.x + p.offset) * p.factor);
}

} // namespace

TEST_CASE("Range reports dims and sizes", "[reference]") {
  ferry::Range r1(7);
  CHECK(r1.dims() == 1);
  CHECK(r1.size(0) == 7);
  CHECK(r1.size(1) == 1);
  CHECK(r1.size(2) == 1);
  ferry::Range r2(3, 4);
  CHECK(r2.dims() == 2);
  CHECK(r2.size(0) == 3);
  CHECK(r2.size(1) == 4);
  CHECK(r2.size(2) == 1);
  ferry::Range r3(2, 3, 5);
  CHECK(r3.dims() == 3);
  CHECK(r3.size(2) == 5);
  CHECK(r3.count() == 30);
}

TEST_CASE("dispatch visits work-items z, then y, then x innermost",
          "[reference]") {
  ferry::Accelerator acc;
  ferry::resetStatistics();

  SECTION("1-D") {
    visits.clear();
    acc.compute([](ferry::ComputeContext &cc) {
      cc.dispatch(record, ferry::Range(4));
    });
    REQUIRE(visits.size() == 4);
    for (int i = 0; i < 4; ++i)
      CHECK(visits[i] == std::make_tuple(i, 0, 0));
    CHECK(lastContext.maxX == 4);
    CHECK(lastContext.maxY == 1);
    CHECK(lastContext.maxZ == 1);
  }
  SECTION("2-D") {
    visits.clear();
    acc.compute([](ferry::ComputeContext &cc) {
      cc.dispatch(record, ferry::Range(3, 2));
    });
    const std::vector<std::tuple<int, int, int>> expected = {
        {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}};
    CHECK(visits == expected);
    CHECK(lastContext.maxX == 3);
    CHECK(lastContext.maxY == 2);
    CHECK(lastContext.maxZ == 1);
  }
  SECTION("3-D") {
    visits.clear();
    acc.compute([](ferry::ComputeContext &cc) {
      cc.dispatch(record, ferry::Range(2, 2, 2));
    });
    const std::vector<std::tuple<int, int, int>> expected = {
        {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
        {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
    CHECK(visits == expected);
    CHECK(lastContext.maxX == 2);
    CHECK(lastContext.maxY == 2);
    CHECK(lastContext.maxZ == 2);
  }
  SECTION("an empty range runs nothing") {
    visits.clear();
    acc.compute([](ferry::ComputeContext &cc) {
      cc.dispatch(record, ferry::Range(0, 5));
    });
    CHECK(visits.empty());
  }
  CHECK(ferry::statistics().dispatches == 1);
  CHECK(ferry::statistics().toDeviceCount == 0);
  CHECK(ferry::statistics().fromDeviceCount == 0);
}

TEST_CASE("dispatch binds buffers as pointers and scalars by value",
          "[reference]") {
  ferry::Buffer<float> x{1, 2, 3, 4};
  ferry::Buffer<float> y(4, 10.0f);
  ferry::Buffer<int> out(5);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(axpy, ferry::Range(x.size()), 2.0f, x, y);
    cc.dispatch(withStruct, ferry::Range(out.size()), Params{3, 2.0f}, out);
  });
  CHECK(std::vector<float>(y.begin(), y.end()) ==
        std::vector<float>{12, 14, 16, 18});
  CHECK(std::vector<int>(out.begin(), out.end()) ==
        std::vector<int>{6, 8, 10, 12, 14});
}

TEST_CASE("dispatch accepts a const buffer for a const pointer",
          "[reference]") {
  const ferry::Buffer<float> x{1, 2};
  ferry::Buffer<float> y(2);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(ferry_test::scale, ferry::Range(2), x, y, 3.0f);
  });
  CHECK(y[0] == 3.0f);
  CHECK(y[1] == 6.0f);
}

TEST_CASE("dispatch fills a 3-D buffer like the device does", "[reference]") {
  ferry::Buffer<int> out(3 * 2 * 2);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(coords, ferry::Range(3, 2, 2), out);
  });
  CHECK(out[0] == 0);
  CHECK(out[2] == 2);
  CHECK(out[3] == 100);
  CHECK(out[6] == 10000);
  CHECK(out[11] == 10102);
}

namespace {
// Records, at the last work-item and at the first, what it sees.
void lastAndFirst(ferry::KernelContext kc, long long *seen) {
  if (kc.x64 == kc.maxX64 - 1) {
    seen[0] = kc.x64;
    seen[1] = kc.x;
  }
  if (kc.x64 == 0)
    seen[2] = kc.maxX64;
}
} // namespace

// Past 2^31 work-items the 64-bit ids count on where the int ones wrap, as
// (int)get_global_id(0) does on the device. About 2^31 calls of a trivial
// kernel: a few seconds.
TEST_CASE("the reference execution runs a range past 2^31 with 64-bit ids",
          "[wide]") {
  const long long n = (1ll << 31) + 2;
  ferry::Buffer<long long> seen(3, 0);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(lastAndFirst, ferry::Range(static_cast<std::size_t>(n)), seen);
  });
  CHECK(seen[0] == n - 1);
  CHECK(seen[1] == static_cast<int>(static_cast<unsigned>(n - 1)));
  CHECK(seen[2] == n);
}

TEST_CASE("64-bit ids equal the int ones in work-groups", "[reference]") {
  std::vector<long long> seen(64 * 3, -1);
  ferry::Buffer<long long> ids(64 * 3);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(
        +[](ferry::KernelContext kc, long long *out) {
          const long long i = kc.y64 * kc.maxX64 + kc.x64;
          out[i] = (kc.x == kc.x64 && kc.y == kc.y64 && kc.maxX64 == kc.maxX)
                       ? kc.groupX * 1000 + kc.localX
                       : -7;
        },
        ferry::Range(16, 12).local(4, 3), ids);
  });
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 16; ++x)
      CHECK(ids[y * 16 + x] == (x / 4) * 1000 + x % 4);
}
