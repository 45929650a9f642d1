// ferry::HomeAtScopeEnd (issue 33): the rewriter puts a loop whose buffers
// only kernels use in a block that starts with one; while it lives, the
// computes' copies home of those buffers wait, and their state carries from
// compute to compute; it brings them home on every way out of the block.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <numeric>
#include <stdexcept>
#include <vector>

using namespace ferry_test;

namespace {

constexpr int N = 16;
constexpr std::uint64_t I = sizeof(int);

// What the rewriter makes of a compute that increments `b`: a guarded copy
// in, the kernel, and the exit's copy home.
void incrementOnDevice(ferry::Accelerator &acc, ferry::Buffer<int> &b) {
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(b);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(N),
              ferry::rw(b));
    cc.fromDevice(b);
  });
}

ferry::Buffer<int> ramp() {
  ferry::Buffer<int> b(N);
  std::iota(b.begin(), b.end(), 0);
  return b;
}

// The ramp plus `steps` at every element.
std::vector<int> stepped(int steps) {
  std::vector<int> v(N);
  std::iota(v.begin(), v.end(), steps);
  return v;
}

std::vector<int> values(const ferry::Buffer<int> &b) {
  return std::vector<int>(b.begin(), b.end());
}

} // namespace

TEST_CASE("a scope's buffer goes in once and comes home once", "[home]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, b);
    for (int s = 0; s < 3; ++s) {
      acc.keepOnDevice(b);
      incrementOnDevice(acc, b);
    }
    // Nothing came home yet: the host copy is still the ramp.
    CHECK(ferry::statistics().fromDeviceCount == 0);
    CHECK(b[0] == 0);
  }
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.toDeviceCount == 1);
  CHECK(s.fromDeviceCount == 1);
  CHECK(s.fromDeviceBytes == N * I);
  CHECK(values(b) == stepped(3));
}

TEST_CASE("a scope carries its computes' states without keeps", "[home]") {
  // The runtime carries what a compute inside the scope left, whatever the
  // lines before the next compute say: a compute in between that does not
  // use the buffer, with no keep, loses nothing.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, b);
    incrementOnDevice(acc, b);
    acc.compute([](ferry::ComputeContext &) {});
    incrementOnDevice(acc, b);
  }
  CHECK(ferry::statistics().toDeviceCount == 1);
  CHECK(ferry::statistics().fromDeviceCount == 1);
  CHECK(values(b) == stepped(2));
}

TEST_CASE("a host write before the scope reaches the device", "[home]") {
  // The last compute before the scope left the buffer valid on both sides,
  // in the epoch still current; the host then wrote it where the runtime
  // cannot see. The scope carries only states its own computes set.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  incrementOnDevice(acc, b);
  b[0] = 100;
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, b);
    incrementOnDevice(acc, b);
    acc.keepOnDevice(b);
    incrementOnDevice(acc, b);
  }
  CHECK(ferry::statistics().toDeviceCount == 1);
  std::vector<int> expected = stepped(3);
  expected[0] = 102;
  CHECK(values(b) == expected);
}

TEST_CASE("an exception leaving the scope brings its buffers home",
          "[home]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  ferry::resetStatistics();
  try {
    ferry::HomeAtScopeEnd home(acc, b);
    for (int s = 0;; ++s) {
      if (s == 2)
        throw std::runtime_error("stop");
      incrementOnDevice(acc, b);
    }
  } catch (const std::runtime_error &) {
  }
  CHECK(ferry::statistics().fromDeviceCount == 1);
  CHECK(values(b) == stepped(2));
  // The buffer is the host's again: the next compute copies it in.
  ferry::resetStatistics();
  incrementOnDevice(acc, b);
  CHECK(ferry::statistics().toDeviceCount == 1);
  CHECK(values(b) == stepped(3));
}

TEST_CASE("nested scopes bring a buffer home at the outer one's end",
          "[home]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd outer(acc, b);
    {
      ferry::HomeAtScopeEnd inner(acc, b);
      incrementOnDevice(acc, b);
    }
    CHECK(ferry::statistics().fromDeviceCount == 0);
    incrementOnDevice(acc, b);
  }
  CHECK(ferry::statistics().fromDeviceCount == 1);
  CHECK(values(b) == stepped(2));
}

TEST_CASE("a scope leaves out a buffer given as a null pointer", "[home]") {
  // `m ? &m->u : nullptr` for a model the function may be handed null.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  const ferry::Buffer<int> *none = nullptr;
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, none, &b);
    incrementOnDevice(acc, b);
    incrementOnDevice(acc, b);
  }
  CHECK(ferry::statistics().fromDeviceCount == 1);
  CHECK(values(b) == stepped(2));
}

TEST_CASE("under the kernel policy a scope changes nothing", "[home]") {
  ScopedPolicy kernel(ferry::Policy::Kernel);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, b);
    incrementOnDevice(acc, b);
    incrementOnDevice(acc, b);
  }
  CHECK(ferry::statistics().fromDeviceCount == 2);
  CHECK(values(b) == stepped(2));
}

namespace {
// An object whose buffers code outside it may not name: the rewriter gives
// the scope the whole object (ferry::buffersIn).
struct Holder {
  ferry::Buffer<int> a = ramp();
  struct Inner {
    ferry::Buffer<int> b = ramp();
  } inner;
};
} // namespace

TEST_CASE("a scope over an object holds every buffer stored inside it",
          "[home]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  Holder h;
  ferry::Buffer<int> outside = ramp();
  // `a` has a device copy before the scope opens, `inner.b` gets its first
  // inside: both are held.
  incrementOnDevice(acc, h.a);
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, ferry::buffersIn(h));
    for (int s = 0; s < 3; ++s) {
      incrementOnDevice(acc, h.a);
      incrementOnDevice(acc, h.inner.b);
      incrementOnDevice(acc, outside);
    }
    // A buffer outside the object still comes home at every exit.
    CHECK(ferry::statistics().fromDeviceCount == 3);
    CHECK(h.a[0] == 1);
    CHECK(h.inner.b[0] == 0);
  }
  const ferry::Statistics s = ferry::statistics();
  // In: `a` once (the host may have written it since its last compute),
  // `inner.b` once, `outside` three times; home: 2 + 3.
  CHECK(s.toDeviceCount == 5);
  CHECK(s.fromDeviceCount == 5);
  CHECK(values(h.a) == stepped(4));
  CHECK(values(h.inner.b) == stepped(3));
  CHECK(values(outside) == stepped(3));
  // Closed: the object's buffers come home at every exit again.
  incrementOnDevice(acc, h.inner.b);
  CHECK(ferry::statistics().fromDeviceCount == 6);
  CHECK(values(h.inner.b) == stepped(4));
}

TEST_CASE("a scope over a null object holds nothing", "[home]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  Holder *none = nullptr;
  ferry::Buffer<int> b = ramp();
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, ferry::buffersIn(none));
    incrementOnDevice(acc, b);
    CHECK(ferry::statistics().fromDeviceCount == 1);
  }
  CHECK(ferry::statistics().fromDeviceCount == 1);
  CHECK(values(b) == stepped(1));
}

TEST_CASE("a buffer given to a scope twice comes home", "[home]") {
  // `run(acc, x, x)` where the rewriter wrote `HomeAtScopeEnd(acc, a, b)`.
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> b = ramp();
  ferry::resetStatistics();
  {
    ferry::HomeAtScopeEnd home(acc, b, b);
    incrementOnDevice(acc, b);
    incrementOnDevice(acc, b);
  }
  CHECK(ferry::statistics().fromDeviceCount == 1);
  CHECK(values(b) == stepped(2));
}
