// The latency probe of bench/timing.sh: what one small dispatch and a
// program's start-up cost on this device in raw OpenCL, the floor under
// Ferry's own numbers. Prints `key=value` lines:
//   platform_ms, context_ms, queue_ms   OpenCL start-up, step by step
//   build_ms                            clBuildProgram from source
//   binary_ms                           the same program from its binary
//   dispatch_us_<mode>                  host wall time per dispatch of a
//                                       kernel over 1024 ints, ROUNDS in a
//                                       row, best of 3, for each mode:
//     plain      in-order queue, no profiling, no events
//     events     an event per dispatch (released as it goes)
//     profiled   profiling queue, an event kept per dispatch (raw_squares)
//     sync       profiling queue, waiting for each dispatch
//
//   latency [ROUNDS]
#include "raw_common.hpp"

#include <algorithm>

namespace {

const char *Source = R"(
__kernel void squareKernel(__global int* values) {
  values[get_global_id(0)] = values[get_global_id(0)] * values[get_global_id(0)];
})";

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
  auto t0 = std::chrono::steady_clock::now();
  cl::Device device = raw::pickDevice();
  std::printf("platform_ms=%.1f\n", msSince(t0));
  t0 = std::chrono::steady_clock::now();
  cl::Context context(device);
  std::printf("context_ms=%.1f\n", msSince(t0));
  t0 = std::chrono::steady_clock::now();
  cl::CommandQueue plain(context, device);
  cl::CommandQueue profiling(context, device, CL_QUEUE_PROFILING_ENABLE);
  std::printf("queue_ms=%.1f\n", msSince(t0));

  t0 = std::chrono::steady_clock::now();
  cl::Program program(context, Source);
  program.build({device});
  std::printf("build_ms=%.1f\n", msSince(t0));
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  t0 = std::chrono::steady_clock::now();
  cl::Program loaded(context, {device}, cl::Program::Binaries{binaries.front()});
  loaded.build({device});
  std::printf("binary_ms=%.1f\n", msSince(t0));

  const std::size_t n = 1024;
  std::vector<int> host(n, 3);
  cl::Buffer buffer(context, CL_MEM_READ_WRITE, n * sizeof(int));
  cl::Kernel kernel(loaded, "squareKernel");
  kernel.setArg(0, buffer);
  profiling.enqueueWriteBuffer(buffer, CL_TRUE, 0, n * sizeof(int), host.data());

  auto perDispatch = [&](const char *mode) {
    const bool useProfiling = std::strcmp(mode, "plain") != 0 &&
                              std::strcmp(mode, "events") != 0;
    cl::CommandQueue &q = useProfiling ? profiling : plain;
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
      q.finish();
      std::vector<cl::Event> kept;
      kept.reserve(rounds);
      t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < rounds; ++r) {
        kernel.setArg(0, buffer);
        if (std::strcmp(mode, "plain") == 0) {
          q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n));
        } else if (std::strcmp(mode, "events") == 0) {
          cl::Event e;
          q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n),
                                 cl::NullRange, nullptr, &e);
        } else {
          kept.emplace_back();
          q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n),
                                 cl::NullRange, nullptr, &kept.back());
          if (std::strcmp(mode, "sync") == 0)
            q.finish();
        }
      }
      q.finish();
      best = std::min(best, msSince(t0) * 1e3 / rounds);
    }
    std::printf("dispatch_us_%s=%.2f\n", mode, best);
  };
  for (const char *mode : {"plain", "events", "profiled", "sync"})
    perDispatch(mode);
  return 0;
}
