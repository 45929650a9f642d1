// The bandwidth probe of bench/timing.sh: host->device and device->host
// copies of one buffer (256 MiB by default) from pageable memory (new[]) and
// from pinned memory (CL_MEM_ALLOC_HOST_PTR, mapped), the best of REPS, by
// event profiling. Prints `pageable_h2d_gbps=…` lines (GB/s, 10^9 B/s).
//
//   bandwidth [MIB] [REPS]
#include "raw_common.hpp"

#include <algorithm>

int main(int argc, char **argv) {
  const std::size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::size_t bytes = mib << 20;
  raw::Runtime rt;
  cl::Buffer device(rt.context, CL_MEM_READ_WRITE, bytes);
  std::vector<char> pageable(bytes, 1);
  cl::Buffer pinnedBuffer(rt.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                          bytes);
  char *pinned = static_cast<char *>(rt.queue.enqueueMapBuffer(
      pinnedBuffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
  std::memset(pinned, 1, bytes);

  auto best = [&](bool toDevice, char *host) {
    double fastest = 1e30;
    for (int r = 0; r < reps; ++r) {
      cl::Event e;
      if (toDevice)
        rt.queue.enqueueWriteBuffer(device, CL_TRUE, 0, bytes, host, nullptr, &e);
      else
        rt.queue.enqueueReadBuffer(device, CL_TRUE, 0, bytes, host, nullptr, &e);
      const double s = (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                        e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) / 1e9;
      fastest = std::min(fastest, s);
    }
    return bytes / fastest / 1e9;
  };
  std::printf("device=%s\n", rt.device.getInfo<CL_DEVICE_NAME>().c_str());
  std::printf("mib=%zu\n", mib);
  std::printf("pageable_h2d_gbps=%.2f\n", best(true, pageable.data()));
  std::printf("pageable_d2h_gbps=%.2f\n", best(false, pageable.data()));
  std::printf("pinned_h2d_gbps=%.2f\n", best(true, pinned));
  std::printf("pinned_d2h_gbps=%.2f\n", best(false, pinned));
  rt.queue.enqueueUnmapMemObject(pinnedBuffer, pinned);
  rt.queue.finish();
  return 0;
}
