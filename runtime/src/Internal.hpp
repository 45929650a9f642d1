// Internal declarations of the Ferry runtime library. Not installed, not
// included by user code.
#pragma once

#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION CL_HPP_TARGET_OPENCL_VERSION
#endif
#include <CL/opencl.hpp>

#include <ferry/ferry.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ferry {
namespace detail {

// --- ClError.cpp ---------------------------------------------------------
// The name of an OpenCL error code ("CL_INVALID_VALUE"), or "CL_UNKNOWN_ERROR".
const char *clErrorName(cl_int code);
// "ferry: clEnqueueWriteBuffer failed: CL_INVALID_VALUE (-30) [context]".
std::string describeClError(const cl::Error &e, const std::string &context = "");
[[noreturn]] void throwClError(const cl::Error &e, const std::string &context = "");

// --- Device.cpp ----------------------------------------------------------
struct DeviceChoice {
  bool host = false;
  cl::Platform platform;
  cl::Device device;
  std::string name; // readable: "host" or "<device> (<platform>)"
};
// Chooses the device that FERRY_DEVICE (`request`; null or empty for unset)
// names. Throws ferry::Error listing every device when nothing matches.
DeviceChoice chooseDevice(const char *request);

// What chooseDevice decides on, without OpenCL (so that tests can give it
// any list of devices).
struct DeviceInfo {
  std::string platform;
  std::string device;
  cl_device_type type = 0;
};
// The index in `all` of the device that FERRY_DEVICE=`request` names (not
// "host"; empty for unset: the first GPU, else the first CPU; "gpu", "cpu";
// else the first device whose platform or device name contains `request`,
// ignoring case), or -1 when none does.
std::ptrdiff_t pickDevice(const std::vector<DeviceInfo> &all,
                          const std::string &request);
// The error message when pickDevice finds nothing: the request and every
// available device.
std::string noDeviceMessage(const std::vector<DeviceInfo> &all,
                            const std::string &request);

// --- Policy.cpp ----------------------------------------------------------
// The transfer policy: FERRY_POLICY, read once (or setPolicyForTesting).
// Throws ferry::Error for an unknown value.
Policy activePolicy();

// --- Session.cpp ---------------------------------------------------------
struct ProgramEntry {
  cl::Program program;
  std::map<std::string, cl::Kernel> kernels;
};

struct Session {
  bool host = false;
  std::string name;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  // Built programs, keyed by the address of their (static) source.
  std::map<const char *, ProgramEntry> programs;

  // The kernel `kernelName` of `source`, building and caching as needed.
  cl::Kernel &kernel(const char *source, const char *kernelName);
};

std::shared_ptr<Session> createSession();
// The session of an Accelerator, created on first use.
Session &sessionFor(std::shared_ptr<Session> &slot);

// --- Buffer bookkeeping (Transfers.cpp) ----------------------------------
struct DeviceShadow {
  cl::Context context; // the context the buffer lives in
  cl::Buffer buffer;
};

struct BufferAccess {
  static bool &hostValid(const BufferBase &b) { return b.hostValid_; }
  static bool &deviceValid(const BufferBase &b) { return b.deviceValid_; }
  static std::shared_ptr<DeviceShadow> &shadow(const BufferBase &b) {
    return b.shadow_;
  }
  // Starts the current epoch for b if it is in an older one: the host may
  // have changed it, so only the host copy is valid.
  static void touch(const BufferBase &b) {
    if (b.epoch_ != currentEpoch()) {
      b.epoch_ = currentEpoch();
      b.hostValid_ = true;
      b.deviceValid_ = false;
    }
  }
};

// b's device buffer in the session's context, allocated (at least 1 byte) on
// first use; a shadow from another context is replaced and the device copy
// marked stale.
cl::Buffer &deviceBuffer(Session &s, const BufferBase &b);
// Unconditional blocking copies, counted in the statistics and traced.
// Zero-byte copies do nothing but still update the validity flags.
void copyToDevice(Session &s, const BufferBase &b);
void copyFromDevice(Session &s, const BufferBase &b);

// --- Statistics.cpp / Trace.cpp ------------------------------------------
void recordToDevice(std::uint64_t bytes, double ms);
void recordFromDevice(std::uint64_t bytes, double ms);
void recordDispatch(double ms);
void recordProgramBuild();

// Records a complete ("X") trace event if FERRY_TRACE is set; written at exit.
void traceEvent(const std::string &name, const char *category,
                std::chrono::steady_clock::time_point start, double ms,
                std::uint64_t bytes, bool hasBytes);
// Reads FERRY_TRACE now, so that the file is written at exit even if no
// event is ever recorded.
void traceStart();
// The trace JSON of everything recorded so far.
std::string traceJson();

} // namespace detail
} // namespace ferry
