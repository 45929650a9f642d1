// The device's memory bandwidth as a device-to-device copy sees it, the bar
// for samples/reduction in bench/kernels.sh: clEnqueueCopyBuffer of BYTES
// between two device buffers, REPS times after one untimed copy, each timed
// by OpenCL event profiling. A copy reads and writes every byte, so its
// bandwidth is 2 x BYTES over its time.
//
//   copy_buffer BYTES REPS
//
// Prints best_ms=<best copy time> and gbps=<2 x BYTES / best_ms>.
#include "raw_common.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  const long long bytes = argc > 1 ? std::atoll(argv[1]) : 64ll << 20;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (bytes <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: copy_buffer BYTES REPS\n");
    return 1;
  }
  raw::Runtime rt;
  const std::size_t size = static_cast<std::size_t>(bytes);
  cl::Buffer from(rt.context, CL_MEM_READ_WRITE, size);
  cl::Buffer to(rt.context, CL_MEM_READ_WRITE, size);
  const int zero = 0;
  rt.queue.enqueueFillBuffer(from, zero, 0, size & ~std::size_t(3));
  rt.queue.enqueueCopyBuffer(from, to, 0, 0, size);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    cl::Event e;
    rt.queue.enqueueCopyBuffer(from, to, 0, 0, size, nullptr, &e);
    e.wait();
    best = std::min(best, (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                           e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) /
                              1e6);
  }
  std::printf("best_ms=%.4f\ngbps=%.1f\n", best, 2.0 * bytes / (best * 1e6));
  return 0;
}
