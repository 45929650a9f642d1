// Device selection, build failures, the host device.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ferry_test;

TEST_CASE("FERRY_DEVICE=cpu picks the OpenCL CPU device", "[errors]") {
  ScopedEnv device("FERRY_DEVICE", "cpu");
  ferry::Accelerator acc;
  CHECK(acc.deviceName() != "host");
  CHECK(acc.deviceName() != "reference");
  CHECK(ferry::statistics().device == acc.deviceName());
}

TEST_CASE("FERRY_DEVICE matches platform or device names case-insensitively",
          "[errors]") {
  const std::string name = cpuAccelerator().deviceName(); // "dev (platform)"
  const std::string platform =
      name.substr(name.rfind('(') + 1, name.size() - name.rfind('(') - 2);
  std::string upper = platform;
  for (char &c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ScopedEnv device("FERRY_DEVICE", upper.c_str());
  ferry::Accelerator acc;
  CHECK(acc.deviceName() == name);
}

TEST_CASE("an unknown FERRY_DEVICE lists the available devices", "[errors]") {
  ScopedEnv device("FERRY_DEVICE", "no-such-device-xyz");
  try {
    ferry::Accelerator acc;
    FAIL("a bogus FERRY_DEVICE was accepted");
  } catch (const ferry::Error &e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("no-such-device-xyz"));
    CHECK_THAT(what, Catch::Contains("available OpenCL devices"));
    const std::string name = cpuAccelerator().deviceName();
    const std::string device_name = name.substr(0, name.rfind(" ("));
    CHECK_THAT(what, Catch::Contains(device_name));
  }
}

TEST_CASE("a kernel that does not compile throws with the build log",
          "[errors]") {
  static const char broken[] = R"CLC(
__kernel void broken(__global float *a) {
  a[get_global_id(0)] = undeclared_identifier_42;
}
)CLC";
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> a(4);
  auto hostTwin = [](ferry::KernelContext, float *) {};
  try {
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(broken, "broken", +hostTwin, ferry::Range(4), ferry::wo(a));
    });
    FAIL("a broken kernel built");
  } catch (const ferry::Error &e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("broken"));
    CHECK_THAT(what, Catch::Contains("CL_BUILD_PROGRAM_FAILURE"));
    CHECK_THAT(what, Catch::Contains("undeclared_identifier_42"));
  }
}

TEST_CASE("a missing kernel name is reported by name", "[errors]") {
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> a(4);
  try {
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(kernelsSource, "no_such_kernel", increment, ferry::Range(4),
                ferry::rw(a));
    });
    FAIL("a missing kernel launched");
  } catch (const ferry::Error &e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("no_such_kernel"));
    CHECK_THAT(what, Catch::Contains("CL_INVALID_KERNEL_NAME (-46)"));
    CHECK_THAT(what, Catch::Contains("clCreateKernel failed"));
  }
}

TEST_CASE("FERRY_DEVICE=host runs the host kernels with no transfers",
          "[errors]") {
  ScopedEnv device("FERRY_DEVICE", "host");
  ferry::Accelerator acc;
  CHECK(acc.deviceName() == "host");
  CHECK(ferry::statistics().device == "host");
  ferry::Buffer<float> a{1, 2, 3};
  ferry::Buffer<float> b(3);
  ferry::resetStatistics();
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(a);
    cc.toDevice(a);
    // Not OpenCL C at all: the host device never builds it.
    cc.launch("this is not OpenCL", "scale", scale, ferry::Range(3),
              ferry::ro(a), ferry::wo(b), 3.0f);
    cc.hostWrites(a);
    cc.fromDevice(b);
    cc.fromDeviceIfStale(b);
  });
  CHECK(std::vector<float>(b.begin(), b.end()) ==
        std::vector<float>{3, 6, 9});
  const ferry::Statistics s = ferry::statistics();
  CHECK(s.dispatches == 1);
  CHECK(s.toDeviceCount == 0);
  CHECK(s.fromDeviceCount == 0);
  CHECK(s.toDeviceBytes == 0);
  CHECK(s.fromDeviceBytes == 0);
}

TEST_CASE("2-D and 3-D launches give the device the right ids", "[transfers]") {
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<int> out2(4 * 3);
  ferry::Buffer<int> out3(3 * 2 * 2);
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.launch(kernelsSource, "coords", coords, ferry::Range(4, 3),
              ferry::wo(out2));
    cc.launch(kernelsSource, "coords", coords, ferry::Range(3, 2, 2),
              ferry::wo(out3));
    cc.fromDeviceIfStale(out2);
    cc.fromDeviceIfStale(out3);
  });
  CHECK(out2[5] == 101);
  CHECK(out2[11] == 203);
  CHECK(out3[11] == 10102);
  // Index 7 of a 3x2x2 range is (x 1, y 0, z 1): (z * ny + y) * nx + x.
  CHECK(out3[7] == 10001);
}
