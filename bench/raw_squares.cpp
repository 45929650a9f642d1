// squares written by hand against the Khronos C++ bindings, with the fewest
// transfers a person would write: one write before the loop of dispatches,
// one read after it. bench/timing.sh runs it beside the Ferry-rewritten
// sample to show what Ferry's runtime costs on top of raw OpenCL.
//
//   raw_squares N ROUNDS      prints the same check line as samples/squares
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static const char *Source = R"(
__kernel void squareKernel(__global int* values) {
  if ((int)get_global_id(0) < (int)get_global_size(0))
    values[get_global_id(0)] = values[get_global_id(0)] * values[get_global_id(0)];
})";

static cl::Device pickDevice() {
  const char *want = std::getenv("FERRY_DEVICE");
  cl_device_type type = want && std::strcmp(want, "cpu") == 0
                            ? CL_DEVICE_TYPE_CPU
                            : CL_DEVICE_TYPE_GPU;
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  for (cl_device_type t : {type, cl_device_type(CL_DEVICE_TYPE_ALL)})
    for (auto &p : platforms) {
      std::vector<cl::Device> devices;
      try {
        p.getDevices(t, &devices);
      } catch (const cl::Error &) {
        continue;
      }
      if (!devices.empty())
        return devices.front();
    }
  throw std::runtime_error("no OpenCL device");
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i)
    values[i] = i % 10;

  cl::Device device = pickDevice();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  cl::Program program(context, Source);
  program.build({device});
  cl::Kernel kernel(program, "squareKernel");
  cl::Buffer buffer(context, CL_MEM_READ_WRITE, sizeof(int) * n);
  // Warm up (some drivers finish building at the first enqueue), as Ferry's
  // timings exclude the build too.
  kernel.setArg(0, buffer);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1));
  queue.finish();

  const auto t0 = std::chrono::steady_clock::now();
  queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, sizeof(int) * n, values.data());
  kernel.setArg(0, buffer);
  for (int r = 0; r < rounds; ++r) {
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n));
    queue.finish(); // as Ferry's launch does: one dispatch at a time
  }
  queue.enqueueReadBuffer(buffer, CL_TRUE, 0, sizeof(int) * n, values.data());
  const double ms = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - t0).count();

  long long sum = 0;
  for (int v : values)
    sum += v;
  std::printf("check: n=%d rounds=%d sum=%lld\n", n, rounds, sum);
  std::fprintf(stderr, "raw_ms=%.3f\n", ms);
  return 0;
}
