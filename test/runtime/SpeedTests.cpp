// The runtime's speed work (issue 11): pinned host storage, in-place use of
// host memory on a unified-memory device, the asynchronous queue and its
// error reports, and the program binary cache. All on PoCL.
#include "TestSupport.hpp"

#include "Internal.hpp" // the session, for the asynchronous error test

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <numeric>
#include <sys/stat.h>
#include <vector>

using namespace ferry_test;

namespace {

int shell(const std::string &command) {
  const int status = std::system(command.c_str());
  return (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

bool fileExists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// Adds 1 to every element of a, on the device, with the planned transfers.
void incrementOnDevice(ferry::Accelerator &acc, ferry::Buffer<int> &a) {
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(a);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(a.size()),
              ferry::rw(a));
    cc.fromDeviceIfStale(a);
  });
}

std::vector<int> iota(std::size_t n, int first) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

} // namespace

TEST_CASE("a buffer made before the Accelerator is pinned and works",
          "[pinned]") {
  ScopedEnv device("FERRY_DEVICE", "cpu");
  ScopedEnv minimum("FERRY_PINNED_MIN", "0");
  const std::uint64_t pinned = ferry::statistics().pinnedBuffers;
  ferry::Buffer<int> a(1000);
  CHECK(ferry::statistics().pinnedBuffers == pinned + 1);
  std::iota(a.begin(), a.end(), 0);
  int *storage = a.data();
  {
    ferry::Accelerator acc; // after the buffer
    incrementOnDevice(acc, a);
  }
  CHECK(a.data() == storage); // the storage never moves
  CHECK(std::vector<int>(a.begin(), a.end()) == iota(1000, 1));
}

TEST_CASE("pinned buffers move with their storage and device copy",
          "[pinned]") {
  ScopedEnv minimum("FERRY_PINNED_MIN", "0");
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> a(300);
  std::iota(a.begin(), a.end(), 0);
  incrementOnDevice(acc, a);
  ferry::Buffer<int> b(std::move(a)); // move construction
  CHECK(a.data() == nullptr);
  incrementOnDevice(acc, b);
  ferry::Buffer<int> c(5, 9);
  c = std::move(b); // move assignment frees c's pinned storage
  incrementOnDevice(acc, c);
  CHECK(std::vector<int>(c.begin(), c.end()) == iota(300, 3));
  c = ferry::Buffer<int>(); // and an empty buffer replaces it
  CHECK(c.size() == 0);
}

TEST_CASE("a buffer outlives its Accelerator and serves the next one",
          "[pinned]") {
  ScopedEnv device("FERRY_DEVICE", "cpu");
  ScopedEnv minimum("FERRY_PINNED_MIN", "0");
  auto a = std::make_unique<ferry::Buffer<int>>(64);
  {
    ferry::Accelerator first;
    std::iota(a->begin(), a->end(), 0);
    incrementOnDevice(first, *a);
  } // the Accelerator goes; the buffer, its storage and device copy stay
  CHECK((*a)[63] == 64);
  {
    ferry::Accelerator second;
    incrementOnDevice(second, *a);
  }
  CHECK(std::vector<int>(a->begin(), a->end()) == iota(64, 2));
  a.reset(); // freed after every Accelerator is gone
}

TEST_CASE("thousands of small pinned buffers", "[pinned]") {
  ScopedEnv minimum("FERRY_PINNED_MIN", "0");
  ferry::Accelerator &acc = cpuAccelerator();
  const std::uint64_t pinned = ferry::statistics().pinnedBuffers;
  std::vector<ferry::Buffer<int>> buffers;
  for (int i = 0; i < 5000; ++i)
    buffers.emplace_back(4, i);
  CHECK(ferry::statistics().pinnedBuffers == pinned + 5000);
  acc.compute([&](ferry::ComputeContext &cc) {
    for (ferry::Buffer<int> &b : buffers) {
      cc.toDevice(b);
      cc.launch(kernelsSource, "increment", increment, ferry::Range(4),
                ferry::rw(b));
    }
    for (ferry::Buffer<int> &b : buffers)
      cc.fromDevice(b);
  });
  bool right = true;
  for (int i = 0; i < 5000; ++i)
    for (int v : buffers[i])
      right = right && v == i + 1;
  CHECK(right);
}

TEST_CASE("one 256 MiB buffer, in place and copied", "[pinned]") {
  for (const char *unified : {"1", "0"}) {
    INFO("FERRY_UNIFIED=" << unified);
    ScopedEnv device("FERRY_DEVICE", "cpu");
    ScopedEnv inPlace("FERRY_UNIFIED", unified);
    const std::size_t n = 64u << 20; // ints
    ferry::Buffer<int> a(n);
    for (std::size_t i = 0; i < n; i += 4096)
      a[i] = static_cast<int>(i / 4096);
    ferry::resetStatistics();
    // The shared context of the CPU device was made by an earlier test, so
    // FERRY_UNIFIED is what it was then: check what the run reports.
    ferry::Accelerator acc;
    incrementOnDevice(acc, a);
    const ferry::Statistics s = ferry::statistics();
    CHECK(s.toDeviceCount == 1);
    CHECK(s.fromDeviceCount == 1);
    CHECK(s.toDeviceBytes == n * sizeof(int));
    if (s.unifiedMemory) {
      CHECK(s.mapCount == 2);
      CHECK(s.mapBytes == 2 * n * sizeof(int));
    } else {
      CHECK(s.mapCount == 0);
    }
    bool right = true;
    for (std::size_t i = 0; i < n; i += 4096)
      right = right && a[i] == static_cast<int>(i / 4096) + 1 && a[i + 1] == 1;
    CHECK(right);
  }
}

TEST_CASE("pinned storage and maps, seen from whole programs", "[pinned]") {
  const std::string stats = tmpPath("pinned_stats.json");
  const std::string err = tmpPath("pinned_stderr.txt");
  const std::string base = "FERRY_DEVICE=cpu FERRY_PINNED_MIN=0 FERRY_STATS='" +
                           stats + "' ";
  const std::string probe = std::string(" '") + FERRY_DEVICE_PROBE + "'";

  SECTION("pinned and in place on PoCL (unified memory)") {
    REQUIRE(shell(base + probe + " > /dev/null 2> '" + err + "'") == 0);
    const std::string json = readFile(stats);
    CHECK_THAT(json, Catch::Contains("\"unified_memory\": true"));
    CHECK_THAT(json, Catch::Contains("\"pinned\": {\"count\": 1, \"bytes\": 12}"));
    CHECK_THAT(json, Catch::Contains("\"maps\": {\"count\": 2, \"bytes\": 24}"));
    CHECK_THAT(json, Catch::Contains("\"to_device\": {\"count\": 1, \"bytes\": 12}"));
    CHECK(readFile(err).empty()); // nothing on stderr unless asked
  }
  SECTION("FERRY_UNIFIED=0 copies") {
    REQUIRE(shell(base + "FERRY_UNIFIED=0" + probe + " > /dev/null") == 0);
    const std::string json = readFile(stats);
    CHECK_THAT(json, Catch::Contains("\"unified_memory\": false"));
    CHECK_THAT(json, Catch::Contains("\"maps\": {\"count\": 0, \"bytes\": 0}"));
    CHECK_THAT(json, Catch::Contains("\"pinned\": {\"count\": 1, \"bytes\": 12}"));
  }
  SECTION("a failing pinned allocation falls back, said once if verbose") {
    REQUIRE(shell(base + "FERRY_PINNED=fail FERRY_VERBOSE=1" + probe +
                  " many > /dev/null 2> '" + err + "'") == 0);
    CHECK_THAT(readFile(stats),
               Catch::Contains("\"pinned\": {\"count\": 0, \"bytes\": 0}"));
    const std::string said = readFile(err);
    const std::size_t first = said.find("pinned allocation of");
    CHECK(first != std::string::npos);
    CHECK(said.find("pinned allocation of", first + 1) == std::string::npos);
    REQUIRE(shell(base + "FERRY_PINNED=fail" + probe + " many > /dev/null 2> '" +
                  err + "'") == 0);
    CHECK(readFile(err).empty()); // silent unless FERRY_VERBOSE
  }
  SECTION("FERRY_PINNED=0 uses plain memory") {
    REQUIRE(shell(base + "FERRY_PINNED=0" + probe + " > /dev/null") == 0);
    CHECK_THAT(readFile(stats),
               Catch::Contains("\"pinned\": {\"count\": 0, \"bytes\": 0}"));
  }
}

TEST_CASE("an asynchronous failure names its command", "[async]") {
  ScopedEnv device("FERRY_DEVICE", "cpu");
  std::shared_ptr<ferry::detail::Session> s = ferry::detail::createSession();
  cl::UserEvent failed(s->context);
  failed.setStatus(CL_OUT_OF_RESOURCES);
  s->track(failed, ferry::detail::CommandKind::Kernel, "boom", 0, false,
           std::chrono::steady_clock::now());
  try {
    s->collect(true);
    FAIL("no error reported");
  } catch (const ferry::Error &e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("kernel 'boom'"));
    CHECK_THAT(what, Catch::Contains("CL_OUT_OF_RESOURCES"));
  }
  CHECK(s->pending.empty()); // reported once

  cl::UserEvent copy(s->context);
  copy.setStatus(CL_MEM_OBJECT_ALLOCATION_FAILURE);
  s->track(copy, ferry::detail::CommandKind::ToDevice, "toDevice", 64, false,
           std::chrono::steady_clock::now());
  CHECK_THROWS_WITH(s->collect(true),
                    Catch::Contains("copying 64 bytes to") &&
                        Catch::Contains("CL_MEM_OBJECT_ALLOCATION_FAILURE"));
}

TEST_CASE("a kernel failing on the device is reported by compute, named",
          "[async]") {
  const std::string out = tmpPath("fails_out.txt");
  const std::string err = tmpPath("fails_err.txt");
  CHECK(shell(std::string("FERRY_DEVICE=cpu FERRY_FAIL_KERNEL=twice '") +
              FERRY_DEVICE_PROBE + "' fails > '" + out + "' 2> '" + err +
              "'") == 2);
  CHECK(readFile(out) == "enqueued\n");
  const std::string what = readFile(err);
  CHECK_THAT(what, Catch::Contains("kernel 'twice' on"));
  CHECK_THAT(what, Catch::Contains("failed"));
}

TEST_CASE("launches do not wait; times come from event profiling",
          "[async]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> a(256, 0);
  handedOut(a);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(a);
    for (int i = 0; i < 100; ++i)
      cc.launch(kernelsSource, "increment", increment, ferry::Range(256),
                ferry::rw(a));
    cc.fromDevice(a);
    cc.hostWrites(a); // waits for nothing left, then the host writes
    a[0] = 1000;
    cc.toDevice(a);
    cc.launch(kernelsSource, "increment", increment, ferry::Range(256),
              ferry::rw(a));
  }); // the end of compute waits for the last launch
  // No copy out was asked for: read the result back in another compute.
  acc.compute([&](ferry::ComputeContext &cc) { cc.fromDevice(a); });
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.dispatches == 101);
  CHECK(s.kernelMs > 0);
  CHECK(a[0] == 1001);
  CHECK(a[1] == 101);
}

TEST_CASE("device time is measured only when the run is measured",
          "[async]") {
  ScopedPolicy planned(ferry::Policy::Planned);
  ScopedEnv device("FERRY_DEVICE", "cpu");
  // FERRY_PROFILE unset: a queue profiles when FERRY_STATS or FERRY_TRACE
  // asks for the numbers, and FERRY_PROFILE=0/1 overrides both.
  struct Case {
    const char *profile, *stats;
    bool measured;
  };
  for (const Case c : {Case{nullptr, nullptr, false},
                       Case{nullptr, "/dev/null", true},
                       Case{"0", "/dev/null", false}, Case{"1", nullptr, true}}) {
    INFO("FERRY_PROFILE=" << (c.profile ? c.profile : "(unset)")
                          << " FERRY_STATS=" << (c.stats ? c.stats : "(unset)"));
    ScopedEnv profile("FERRY_PROFILE", c.profile);
    ScopedEnv stats("FERRY_STATS", c.stats);
    ferry::Accelerator acc; // a new queue, made under these settings
    ferry::Buffer<int> a(4096, 1);
    handedOut(a);
    ferry::resetStatistics();
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.toDevice(a);
      for (int i = 0; i < 20; ++i)
        cc.launch(kernelsSource, "increment", increment, ferry::Range(4096),
                  ferry::rw(a));
      cc.fromDevice(a);
    });
    const ferry::Statistics s = ferry::statistics();
    CHECK(s.dispatches == 20);
    CHECK(s.toDeviceCount == 1);
    CHECK(a[4095] == 21);
    CHECK((s.kernelMs > 0) == c.measured);
    CHECK((s.transferMs > 0) == c.measured);
  }
}

namespace {
// A program no other test builds, so that the cache starts cold.
const char cacheSource[] = R"CLC(
__kernel void add_seven(__global int *a) { a[get_global_id(0)] += 7; }
)CLC";

void addSeven(ferry::Accelerator &acc, ferry::Buffer<int> &a) {
  auto add = [](ferry::KernelContext kc, int *p) { p[kc.x] += 7; };
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(a);
    cc.launch(cacheSource, "add_seven", +add, ferry::Range(a.size()),
              ferry::rw(a));
    cc.fromDevice(a);
  });
}
} // namespace

TEST_CASE("the program binary cache: miss, hit, corrupt file, disabled",
          "[cache]") {
  ScopedEnv device("FERRY_DEVICE", "cpu");
  ScopedEnv enabled("FERRY_CACHE", nullptr);
  const std::string dir = tmpPath("program-cache");
  shell("rm -rf '" + dir + "'");
  ScopedEnv where("FERRY_CACHE_DIR", dir.c_str());
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Buffer<int> a(8, 0);
  ferry::resetStatistics();

  { // a miss: built from source, then stored
    ferry::Accelerator acc;
    addSeven(acc, a);
  }
  CHECK(ferry::statistics().programBuilds == 1);
  CHECK(ferry::statistics().programCacheHits == 0);
  ferry::detail::DeviceChoice choice = ferry::detail::chooseDevice("cpu");
  const std::string key =
      ferry::detail::programCacheKey(choice.device, cacheSource);
  const std::string file = ferry::detail::programCacheFile(dir, key);
  REQUIRE(fileExists(file));

  { // a hit: loaded, not built
    ferry::Accelerator acc;
    addSeven(acc, a);
  }
  CHECK(ferry::statistics().programBuilds == 1);
  CHECK(ferry::statistics().programCacheHits == 1);

  SECTION("a corrupt file is a miss, and is replaced") {
    const std::string good = readFile(file);
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        << good.substr(0, good.size() / 2);
    {
      ferry::Accelerator acc;
      addSeven(acc, a);
    }
    CHECK(ferry::statistics().programBuilds == 2);
    CHECK(ferry::statistics().programCacheHits == 1);
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        << good.substr(0, good.find('\n') + 1) << "garbage";
    {
      ferry::Accelerator acc;
      addSeven(acc, a);
    }
    CHECK(ferry::statistics().programBuilds == 3);
    { // the rebuilt program was stored again
      ferry::Accelerator acc;
      addSeven(acc, a);
    }
    CHECK(ferry::statistics().programCacheHits == 2);
    CHECK(a[0] == 7 * 5);
  }
  SECTION("FERRY_CACHE=0 neither loads nor stores") {
    ScopedEnv off("FERRY_CACHE", "0");
    std::remove(file.c_str());
    {
      ferry::Accelerator acc;
      addSeven(acc, a);
    }
    CHECK(ferry::statistics().programBuilds == 2);
    CHECK_FALSE(fileExists(file));
    CHECK(ferry::detail::programCacheDirectory().empty());
  }
  SECTION("the default directory") {
    ScopedEnv noDir("FERRY_CACHE_DIR", nullptr);
    {
      ScopedEnv xdg("XDG_CACHE_HOME", "/somewhere");
      CHECK(ferry::detail::programCacheDirectory() == "/somewhere/ferry");
    }
    ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
    ScopedEnv home("HOME", "/home/someone");
    CHECK(ferry::detail::programCacheDirectory() ==
          "/home/someone/.cache/ferry");
  }
}

TEST_CASE("the statistics JSON reports the extensions", "[statistics]") {
  ferry::Statistics s;
  s.programCacheHits = 2;
  s.unifiedMemory = true;
  s.mapCount = 3;
  s.mapBytes = 96;
  s.pinnedBuffers = 1;
  s.pinnedBytes = 4096;
  s.fillCount = 2;
  s.fillBytes = 64;
  s.partialToDeviceCount = 4;
  s.partialToDeviceBytes = 48;
  s.partialFromDeviceCount = 1;
  s.partialFromDeviceBytes = 8;
  s.unnamedFromDeviceCount = 2;
  s.unnamedFromDeviceBytes = 12;
  CHECK_THAT(ferry::detail::statisticsJson(s),
             Catch::EndsWith("\"program_cache_hits\": 2, "
                             "\"unified_memory\": true, "
                             "\"maps\": {\"count\": 3, \"bytes\": 96}, "
                             "\"pinned\": {\"count\": 1, \"bytes\": 4096}, "
                             "\"fills\": {\"count\": 2, \"bytes\": 64}, "
                             "\"partial_to_device\": {\"count\": 4, \"bytes\": 48}, "
                             "\"partial_from_device\": {\"count\": 1, \"bytes\": 8}, "
                             "\"unnamed_from_device\": {\"count\": 2, \"bytes\": 12}}\n"));
}
