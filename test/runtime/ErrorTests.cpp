// Device selection, build failures, the host device.
#include "TestSupport.hpp"

#include "Internal.hpp" // the runtime's own device choice, without OpenCL

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
    CHECK_THAT(what, Catch::Contains("clBuildProgram failed"));
    CHECK_THAT(what, Catch::Contains("CL_BUILD_PROGRAM_FAILURE"));
    CHECK_THAT(what, Catch::Contains("build log"));
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

TEST_CASE("a scalar of the wrong size names clSetKernelArg", "[errors]") {
  ferry::Accelerator &acc = cpuAccelerator();
  ferry::Buffer<float> a(4);
  auto hostTwin = [](ferry::KernelContext, float *, double) {};
  try {
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(kernelsSource, "square", +hostTwin, ferry::Range(4),
                ferry::rw(a), 2.0); // square takes an int
    });
    FAIL("a double was accepted for an int");
  } catch (const ferry::Error &e) {
    const std::string what = e.what();
    INFO(what);
    CHECK_THAT(what, Catch::Contains("clSetKernelArg failed"));
    CHECK_THAT(what, Catch::Contains("CL_INVALID_ARG_SIZE"));
    CHECK_THAT(what, Catch::Contains("square"));
  }
}

namespace {
using ferry::detail::DeviceInfo;
using ferry::detail::pickDevice;

const std::vector<DeviceInfo> someDevices = {
    {"Portable Computing Language", "cpu-haswell", CL_DEVICE_TYPE_CPU},
    {"Intel FPGA SDK", "fpga emulator", CL_DEVICE_TYPE_ACCELERATOR},
    {"NVIDIA CUDA", "NVIDIA H100", CL_DEVICE_TYPE_GPU},
    {"NVIDIA CUDA", "NVIDIA A100", CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT},
    {"Other", "second cpu", CL_DEVICE_TYPE_CPU},
};
} // namespace

TEST_CASE("FERRY_DEVICE unset picks the first GPU, else the first CPU",
          "[errors]") {
  CHECK(pickDevice(someDevices, "") == 2);
  const std::vector<DeviceInfo> noGpu(someDevices.begin(),
                                      someDevices.begin() + 2);
  CHECK(pickDevice(noGpu, "") == 0);
  const std::vector<DeviceInfo> accelOnly = {someDevices[1]};
  CHECK(pickDevice(accelOnly, "") == -1); // neither a GPU nor a CPU
  CHECK(pickDevice({}, "") == -1);
}

TEST_CASE("FERRY_DEVICE cpu, gpu and substrings", "[errors]") {
  CHECK(pickDevice(someDevices, "gpu") == 2);
  CHECK(pickDevice(someDevices, "GPU") == 2);
  CHECK(pickDevice(someDevices, "cpu") == 0);
  CHECK(pickDevice(someDevices, "Cpu") == 0);
  CHECK(pickDevice(someDevices, "a100") == 3);      // a device name
  CHECK(pickDevice(someDevices, "nvidia") == 2);    // the first match
  CHECK(pickDevice(someDevices, "portable") == 0);  // a platform name
  CHECK(pickDevice(someDevices, "SECOND") == 4);
  CHECK(pickDevice(someDevices, "fpga") == 1);
  CHECK(pickDevice(someDevices, "no such thing") == -1);
  const std::vector<DeviceInfo> cpuOnly = {someDevices[0]};
  CHECK(pickDevice(cpuOnly, "gpu") == -1);
}

TEST_CASE("FERRY_DEVICE gpu:local-rank and cpu:local-rank pick by the local "
          "rank, modulo the devices of that type",
          "[errors]") {
  const char *names[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                         "SLURM_LOCALID", "PMI_LOCAL_RANK"};
  ScopedEnv a(names[0], nullptr), b(names[1], nullptr), c(names[2], nullptr),
      d(names[3], nullptr);
  // No MPI job: rank 0, the first of each type.
  CHECK(ferry::detail::localRank() == 0);
  CHECK(pickDevice(someDevices, "gpu:local-rank") == 2);
  CHECK(pickDevice(someDevices, "cpu:local-rank") == 0);
  CHECK(pickDevice(someDevices, "GPU:Local-Rank") == 2);
  for (const char *name : names) {
    INFO(name);
    ScopedEnv rank(name, "1");
    CHECK(ferry::detail::localRank() == 1);
    CHECK(pickDevice(someDevices, "gpu:local-rank") == 3); // the second GPU
    CHECK(pickDevice(someDevices, "cpu:local-rank") == 4); // the second CPU
  }
  {
    ScopedEnv rank(names[0], "2"); // two GPUs: rank 2 shares the first
    CHECK(pickDevice(someDevices, "gpu:local-rank") == 2);
    ScopedEnv later(names[2], "3"); // Open MPI's variable comes first
    CHECK(ferry::detail::localRank() == 2);
  }
  {
    ScopedEnv bad(names[0], "x1"); // not a number: the next one counts
    ScopedEnv negative(names[1], "-1");
    ScopedEnv slurm(names[2], "7");
    CHECK(ferry::detail::localRank() == 7);
    CHECK(pickDevice(someDevices, "gpu:local-rank") == 3);
  }
  const std::vector<DeviceInfo> cpuOnly = {someDevices[0]};
  CHECK(pickDevice(cpuOnly, "gpu:local-rank") == -1);
  CHECK(pickDevice(cpuOnly, "cpu:local-rank") == 0);
  CHECK_THAT(ferry::detail::noDeviceMessage(cpuOnly, "gpu:local-rank"),
             Catch::Contains("gpu:local-rank, cpu:local-rank"));
}

TEST_CASE("FERRY_DEVICE=cpu:local-rank runs on the CPU device", "[errors]") {
  ScopedEnv device("FERRY_DEVICE", "cpu:local-rank");
  ScopedEnv rank("OMPI_COMM_WORLD_LOCAL_RANK", "5");
  ferry::Accelerator acc; // one CPU device here: every rank shares it
  CHECK(acc.deviceName() == cpuAccelerator().deviceName());
}

TEST_CASE("the no-device error names the request and every device",
          "[errors]") {
  const std::string what =
      ferry::detail::noDeviceMessage(someDevices, "tpu");
  CHECK_THAT(what, Catch::Contains("FERRY_DEVICE='tpu' matches no device"));
  CHECK_THAT(what, Catch::Contains("available OpenCL devices"));
  CHECK_THAT(what, Catch::Contains(
                       "platform 'NVIDIA CUDA': device 'NVIDIA H100' (GPU)"));
  CHECK_THAT(what, Catch::Contains("device 'fpga emulator' (accelerator)"));
  CHECK_THAT(what, Catch::Contains("device 'second cpu' (CPU)"));
  CHECK_THAT(what, Catch::Contains("host, cpu, gpu"));
  CHECK_THAT(ferry::detail::noDeviceMessage({}, ""),
             Catch::Contains("no OpenCL platforms or devices are available"));
  CHECK_THAT(ferry::detail::noDeviceMessage({}, ""),
             Catch::Contains("FERRY_DEVICE is unset"));
}

TEST_CASE("FERRY_DEVICE unset or gpu on this machine", "[errors]") {
  const std::string cpu = cpuAccelerator().deviceName();
  std::string unsetName;
  {
    ScopedEnv device("FERRY_DEVICE", nullptr);
    unsetName = ferry::Accelerator().deviceName();
  }
  ScopedEnv device("FERRY_DEVICE", "gpu");
  try {
    ferry::Accelerator gpu;
    CHECK(unsetName == gpu.deviceName()); // a GPU exists: it wins
  } catch (const ferry::Error &e) {
    CHECK(unsetName == cpu); // no GPU: the first CPU
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("FERRY_DEVICE='gpu' matches no device"));
    CHECK_THAT(what, Catch::Contains(cpu.substr(0, cpu.rfind(" ("))));
  }
}

TEST_CASE("a program is built once per context", "[errors]") {
  // A source no other test uses, so that no earlier build is cached.
  static const char source[] = R"CLC(
__kernel void add_one(__global int *a) { a[get_global_id(0)] += 1; }
__kernel void add_two(__global int *a) { a[get_global_id(0)] += 2; }
)CLC";
  auto addOne = [](ferry::KernelContext kc, int *a) { a[kc.x] += 1; };
  auto addTwo = [](ferry::KernelContext kc, int *a) { a[kc.x] += 2; };
  ScopedPolicy planned(ferry::Policy::Planned);
  ferry::Buffer<int> a(4);
  auto body = [&](ferry::ComputeContext &cc) {
    cc.toDeviceIfStale(a);
    for (int i = 0; i < 3; ++i)
      cc.launch(source, "add_one", +addOne, ferry::Range(4), ferry::rw(a));
    cc.launch(source, "add_two", +addTwo, ferry::Range(4), ferry::rw(a));
    cc.fromDeviceIfStale(a);
  };
  ferry::resetStatistics();
  cpuAccelerator().compute(body);
  cpuAccelerator().compute(body);
  CHECK(ferry::statistics().programBuilds == 1);
  CHECK(ferry::statistics().dispatches == 8);
  CHECK(a[3] == 10);

  ScopedEnv device("FERRY_DEVICE", "cpu");
  ferry::Accelerator another; // another context: built again, once
  another.compute(body);
  another.compute(body);
  CHECK(ferry::statistics().programBuilds == 2);
  CHECK(a[0] == 20);
}
