// squares written by hand against the Khronos C++ bindings, with the fewest
// transfers a person would write: one write before the loop of dispatches,
// one read after it, and no wait between dispatches. bench/timing.sh runs it
// beside the Ferry-rewritten sample to show what Ferry's runtime costs on
// top of raw OpenCL. Built twice: raw_squares (pageable host memory) and
// raw_squares_pinned (RAW_PINNED: pinned, mapped host memory).
//
//   raw_squares N ROUNDS      prints the same check line as samples/squares
//   RAW_SYNC=1 raw_squares …  waits for each dispatch (the old Ferry launch)
#include "raw_common.hpp"

static const char *Source = R"(
__kernel void squareKernel(__global int* values) {
  if ((int)get_global_id(0) < (int)get_global_size(0))
    values[get_global_id(0)] = values[get_global_id(0)] * values[get_global_id(0)];
})";

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  raw::Runtime rt;
  raw::HostArray<int> values(rt, n);
  for (int i = 0; i < n; ++i)
    values[i] = i % 10;

  cl::Program program = rt.build(Source);
  cl::Kernel kernel(program, "squareKernel");
  cl::Buffer buffer(rt.context, CL_MEM_READ_WRITE, sizeof(int) * n);
  // Warm up (some drivers finish building at the first enqueue), as Ferry's
  // timings exclude the build too.
  kernel.setArg(0, buffer);
  rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1));

  rt.start();
  rt.write(buffer, values.data(), values.bytes(), false);
  for (int r = 0; r < rounds; ++r)
    rt.run(kernel, cl::NDRange(n));
  rt.read(buffer, values.data(), values.bytes());
  rt.report();

  long long sum = 0;
  for (int i = 0; i < n; ++i)
    sum += values[i];
  std::printf("check: n=%d rounds=%d sum=%lld\n", n, rounds, sum);
  return 0;
}
