// Shared by the hand-written raw OpenCL programs of bench/: the device
// (FERRY_DEVICE=cpu|gpu as the samples read it), a profiling in-order queue,
// host arrays that are pageable (std::vector-like, the default) or pinned
// (built with RAW_PINNED: a CL_MEM_ALLOC_HOST_PTR buffer, mapped), and the
// timings each program prints on stderr for bench/timing.sh:
//   raw_ms=<host clock, first copy in to last copy out, build excluded>
//   kernel_ms=<device time of kernels>  transfer_ms=<device time of copies>
//   to_bytes=<bytes copied in>  from_bytes=<bytes copied out>
#pragma once
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

#ifndef RAW_PINNED
#define RAW_PINNED 0
#endif

namespace raw {

inline cl::Device pickDevice() {
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

struct Runtime {
  cl::Device device = pickDevice();
  cl::Context context{device};
  cl::CommandQueue queue{context, device, CL_QUEUE_PROFILING_ENABLE};
  std::vector<std::pair<cl::Event, bool>> events; // (event, is a kernel)
  std::size_t toBytes = 0, fromBytes = 0;
  std::chrono::steady_clock::time_point t0;

  cl::Program build(const char *source) {
    cl::Program program(context, source);
    program.build({device});
    return program;
  }
  cl::Event *track(bool kernel) {
    events.emplace_back(cl::Event(), kernel);
    return &events.back().first;
  }
  void write(cl::Buffer &b, const void *p, std::size_t bytes, bool block) {
    queue.enqueueWriteBuffer(b, block ? CL_TRUE : CL_FALSE, 0, bytes, p,
                             nullptr, track(false));
    toBytes += bytes;
  }
  void read(cl::Buffer &b, void *p, std::size_t bytes) {
    queue.enqueueReadBuffer(b, CL_TRUE, 0, bytes, p, nullptr, track(false));
    fromBytes += bytes;
  }
  void run(cl::Kernel &k, const cl::NDRange &range) {
    queue.enqueueNDRangeKernel(k, cl::NullRange, range, cl::NullRange,
                               nullptr, track(true));
    // RAW_SYNC=1: wait for each dispatch (what Ferry's runtime did before
    // its queue became asynchronous).
    static const bool sync = std::getenv("RAW_SYNC") &&
                             std::strcmp(std::getenv("RAW_SYNC"), "1") == 0;
    if (sync)
      queue.finish();
  }
  void start() {
    queue.finish();
    events.clear();
    t0 = std::chrono::steady_clock::now();
  }
  void report() {
    queue.finish();
    const double ms = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - t0).count();
    double kernelMs = 0, transferMs = 0;
    for (auto &e : events) {
      const double d =
          (e.first.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
           e.first.getProfilingInfo<CL_PROFILING_COMMAND_START>()) / 1e6;
      (e.second ? kernelMs : transferMs) += d;
    }
    std::fprintf(stderr,
                 "raw_ms=%.3f\nkernel_ms=%.3f\ntransfer_ms=%.3f\n"
                 "to_bytes=%zu\nfrom_bytes=%zu\n",
                 ms, kernelMs, transferMs, toBytes, fromBytes);
  }
};

// n elements of host memory: pageable (new[]) or, with RAW_PINNED, a
// CL_MEM_ALLOC_HOST_PTR buffer mapped for its whole life.
template <class T> class HostArray {
public:
  HostArray(Runtime &rt, std::size_t n) : rt_(rt), n_(n) {
#if RAW_PINNED
    pinned_ = cl::Buffer(rt.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                         bytes() ? bytes() : 1);
    p_ = static_cast<T *>(rt.queue.enqueueMapBuffer(
        pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes() ? bytes() : 1));
    std::memset(static_cast<void *>(p_), 0, bytes());
#else
    p_ = new T[n]();
#endif
  }
  ~HostArray() {
#if RAW_PINNED
    rt_.queue.enqueueUnmapMemObject(pinned_, p_);
    rt_.queue.finish();
#else
    delete[] p_;
#endif
  }
  HostArray(const HostArray &) = delete;
  HostArray &operator=(const HostArray &) = delete;
  T &operator[](std::size_t i) { return p_[i]; }
  T *data() { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

private:
  Runtime &rt_;
  std::size_t n_;
  T *p_ = nullptr;
#if RAW_PINNED
  cl::Buffer pinned_;
#endif
};

} // namespace raw
