// ferry::Buffer: construction, access, moves.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <numeric>
#include <type_traits>
#include <vector>

using namespace ferry_test;

static_assert(!std::is_copy_constructible<ferry::Buffer<int>>::value,
              "buffers are not copyable");
static_assert(!std::is_copy_assignable<ferry::Buffer<int>>::value,
              "buffers are not copyable");
static_assert(std::is_nothrow_move_constructible<ferry::Buffer<int>>::value,
              "buffers are movable");
static_assert(std::is_nothrow_move_assignable<ferry::Buffer<int>>::value,
              "buffers are movable");
static_assert(std::is_base_of<ferry::detail::BufferBase,
                              ferry::Buffer<double>>::value,
              "buffers share a non-template base");

namespace {
struct Particle {
  float x, y;
  int id;
};
} // namespace

TEST_CASE("Buffer construction forms", "[buffer]") {
  SECTION("value-initialised") {
    ferry::Buffer<int> b(5);
    CHECK(b.size() == 5);
    CHECK(b.bytes() == 5 * sizeof(int));
    for (int v : b)
      CHECK(v == 0);
    ferry::Buffer<Particle> p(3);
    CHECK(p[2].x == 0.0f);
    CHECK(p[2].id == 0);
  }
  SECTION("filled") {
    ferry::Buffer<double> b(4, 2.5);
    CHECK(std::vector<double>(b.begin(), b.end()) ==
          std::vector<double>(4, 2.5));
  }
  SECTION("initializer list") {
    ferry::Buffer<int> b{1, 2, 3};
    CHECK(b.size() == 3);
    CHECK(b[0] == 1);
    CHECK(b[2] == 3);
    ferry::Buffer<int> one{5}; // braces list elements, as for std::vector
    CHECK(one.size() == 1);
    CHECK(one[0] == 5);
    ferry::Buffer<float> f{1, 2.5f};
    CHECK(f.bytes() == 2 * sizeof(float));
  }
  SECTION("empty") {
    ferry::Buffer<float> b(0);
    CHECK(b.size() == 0);
    CHECK(b.bytes() == 0);
    CHECK(b.begin() == b.end());
    ferry::Buffer<float> d;
    CHECK(d.size() == 0);
  }
  SECTION("bool is contiguous") {
    ferry::Buffer<bool> b(10, true);
    bool *p = b.data();
    CHECK(p + 10 == b.end());
    CHECK(b.bytes() == 10 * sizeof(bool));
    CHECK(p[9]);
  }
  SECTION("host state starts valid on the host only") {
    ferry::Buffer<int> b(2);
    CHECK(b.hostValid());
    CHECK_FALSE(b.deviceValid());
    CHECK_FALSE(b.hasDeviceShadow());
    CHECK(b.hostPointer() == static_cast<void *>(b.data()));
    CHECK(b.byteSize() == b.bytes());
  }
}

TEST_CASE("Buffer element access, const and not", "[buffer]") {
  ferry::Buffer<int> b(6);
  std::iota(b.begin(), b.end(), 10);
  const ferry::Buffer<int> &cb = b;
  CHECK(cb[5] == 15);
  CHECK(cb.data() == b.data());
  CHECK(std::accumulate(cb.begin(), cb.end(), 0) == 75);
  b.data()[0] = 42;
  CHECK(cb[0] == 42);
}

TEST_CASE("Buffer moves carry the data, the device copy and its validity",
          "[buffer]") {
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> a{1, 2, 3, 4};
  const int *storage = a.data();
  ferry::Buffer<int> moved;

  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(a);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
              ferry::rw(a));
    REQUIRE(a.deviceValid());
    REQUIRE_FALSE(a.hostValid());

    SECTION("move construction") {
      ferry::Buffer<int> b(std::move(a));
      CHECK(a.size() == 0);
      CHECK(a.data() == nullptr);
      CHECK_FALSE(a.hasDeviceShadow());
      CHECK(a.hostValid());
      CHECK_FALSE(a.deviceValid());
      CHECK(b.data() == storage);
      CHECK(b.hasDeviceShadow());
      CHECK(b.deviceValid());
      CHECK_FALSE(b.hostValid());
      cc.fromDeviceIfStale(b);
      CHECK(std::vector<int>(b.begin(), b.end()) ==
            std::vector<int>{2, 3, 4, 5});
    }
    SECTION("move assignment") {
      moved = ferry::Buffer<int>(100, 7); // replaced below
      moved = std::move(a);
      CHECK(a.size() == 0);
      CHECK_FALSE(a.hasDeviceShadow());
      CHECK(moved.size() == 4);
      CHECK(moved.data() == storage);
      CHECK(moved.deviceValid());
      CHECK_FALSE(moved.hostValid());
      cc.fromDeviceIfStale(moved);
      CHECK(moved[3] == 5);
    }
  });
}
