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

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
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
// "gpu:local-rank", "cpu:local-rank": of the devices of that type, number
// localRank() modulo their count; else the first device whose platform or
// device name contains `request`, ignoring case), or -1 when none does.
std::ptrdiff_t pickDevice(const std::vector<DeviceInfo> &all,
                          const std::string &request);
// This process's rank among the processes of an MPI job on its node: the
// first of OMPI_COMM_WORLD_LOCAL_RANK (Open MPI), MPI_LOCALRANKID (MPICH),
// SLURM_LOCALID (Slurm), PMI_LOCAL_RANK that is set to a number, else 0.
std::size_t localRank();
// The error message when pickDevice finds nothing: the request and every
// available device.
std::string noDeviceMessage(const std::vector<DeviceInfo> &all,
                            const std::string &request);

// --- Policy.cpp ----------------------------------------------------------
// The transfer policy: FERRY_POLICY, read once (or setPolicyForTesting).
// Throws ferry::Error for an unknown value.
Policy activePolicy();
// The written-out transfers apply: planned, or whole (its whole-buffer
// twin).
inline bool followsPlan(Policy p) {
  return p == Policy::Planned || p == Policy::Whole;
}

// --- Context.cpp ---------------------------------------------------------
// Settings: true when the variable is set to 0, off, no or false.
bool settingOff(const char *name);
// FERRY_VERBOSE is set (and not off): say what the runtime decided.
bool verbose();
// Prints "ferry: <message>" on stderr once per `key`, under FERRY_VERBOSE.
void verboseOnce(const std::string &key, const std::string &message);
// Whether a new queue measures device time (OpenCL event profiling):
// FERRY_PROFILE=1 or 0 says so; unset, only when the run is measured
// (FERRY_STATS or FERRY_TRACE is set), since a profiled command costs the
// NVIDIA driver several microseconds more per dispatch.
bool profilingWanted();

// One OpenCL context per device, shared by every Accelerator on it and by
// the pinned host storage of every buffer, so that a buffer made before the
// Accelerator (or outliving it) lives in the context that uses it.
struct DeviceContext {
  cl::Device device;
  cl::Context context;
  cl::CommandQueue mapQueue; // maps and unmaps the pinned host storage
  std::string name;
  // The device reads and writes host memory itself
  // (CL_DEVICE_HOST_UNIFIED_MEMORY), unless FERRY_UNIFIED=0.
  bool unified = false;
  std::size_t alignment = 128; // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes
};
// The shared context of `choice` (not the host device), created on first
// need. Throws ferry::Error.
std::shared_ptr<DeviceContext> contextFor(const DeviceChoice &choice);
// True when `host` is the start of live pinned storage, aligned as
// `context`'s device wants: what a unified-memory device may use in place.
bool isPinnedStorage(const void *host, const DeviceContext &context);
// Fills in the pinned host storage hooks (allocateHost, freeHost).
void registerHostStorage(RuntimeHooks &hooks);

// --- ProgramCache.cpp ------------------------------------------------------
// The directory of the program binary cache, or "" when FERRY_CACHE=0:
// FERRY_CACHE_DIR, else $XDG_CACHE_HOME/ferry, else ~/.cache/ferry.
std::string programCacheDirectory();
// The cache file of a program for a device (its path in the directory).
std::string programCacheFile(const std::string &directory,
                             const std::string &key);
// The key of `source` built for `device`: device, platform and driver
// versions, and the source itself.
// The options every program is built with: `-cl-fast-relaxed-math` under
// FERRY_FAST_MATH=1 (an extension), else none.
const std::string &programBuildOptions();
std::string programCacheKey(const cl::Device &device,
                            const std::string &source);
// The cached binary of `key`, or empty (missing, unreadable, another key).
std::vector<unsigned char> loadProgramBinary(const std::string &directory,
                                             const std::string &key);
// Stores `binary` (temp file, then rename); false when it cannot.
bool storeProgramBinary(const std::string &directory, const std::string &key,
                        const std::vector<unsigned char> &binary);

// --- Session.cpp ---------------------------------------------------------
// A kernel of a built program; its name (the map's key) lives as long as
// the session, so pending commands refer to it.
using KernelEntry = std::pair<const std::string, cl::Kernel>;
struct ProgramEntry {
  cl::Program program;
  std::map<std::string, cl::Kernel, std::less<>> kernels;
};

// A command enqueued and not yet waited for: its event, and what to say
// about it (in the statistics, the trace, or an error).
enum class CommandKind { Kernel, ToDevice, FromDevice };
struct PendingCommand {
  cl::Event event;
  CommandKind kind;
  // The kernel (the rewritten source's static name), or "toDevice" /
  // "fromDevice": never freed while the program runs.
  const char *name;
  std::uint64_t bytes;
  bool mapped; // a transfer done as a map (no copy)
  std::chrono::steady_clock::time_point enqueued;
};

// The kernels enqueued without an event since the last wait, to name them
// if the wait reports a failure: runs of the same kernel, a few of them.
class UnwaitedKernels {
public:
  void add(const char *name) {
    if (!runs_.empty() && runs_.back().first == name)
      ++runs_.back().second;
    else if (runs_.size() < kept)
      runs_.emplace_back(name, 1);
    else
      ++more_;
  }
  bool empty() const { return runs_.empty(); }
  void clear() {
    runs_.clear();
    more_ = 0;
  }
  // "kernel 'a'", or "one of the kernels enqueued since the last wait
  // ('a' x3, 'b')".
  std::string describe() const;

private:
  static constexpr std::size_t kept = 8;
  std::vector<std::pair<const char *, std::uint64_t>> runs_;
  std::uint64_t more_ = 0;
};

struct Session {
  bool host = false;
  std::string name;
  std::shared_ptr<DeviceContext> shared;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue; // in order; profiling when `profiling`
  bool profiling = false;
  bool unified = false;
  // Built programs, keyed by the address of their (static) source.
  std::map<const char *, ProgramEntry> programs;
  // Commands not yet accounted for, in the order they were enqueued.
  std::vector<PendingCommand> pending;
  // Kernels enqueued without an event (see eventPerDispatch in Launch.cpp).
  UnwaitedKernels unwaited;
  // The partial values of reductions (Launch.cpp), one buffer per reducer
  // of a launch, reused: the queue runs a launch's two kernels in order.
  std::vector<cl::Buffer> reductionPartials;
  std::vector<std::size_t> reductionPartialsBytes;
  // Asked of OpenCL once, not at every reduction: the device's compute
  // units, and each reduction kernel's tree size by program and kernel name
  // (Launch.cpp, treeSize).
  std::size_t computeUnits = 0;
  std::map<std::pair<const char *, std::string>, std::size_t> treeSizes;
  // The ferry::HomeAtScopeEnd scopes open on this session that hold whole
  // objects: a buffer inside one that gets its device copy while the scope
  // is open joins the scope's list (Transfers.cpp).
  struct ScopeOverObjects {
    std::vector<const BufferBase *> *buffers;
    const std::vector<ObjectBytes> *objects;
    std::uint64_t from; // deferredFrom for the buffers that join later
  };
  std::vector<ScopeOverObjects> scopesOverObjects;

  // The kernel `kernelName` of `source`, building and caching as needed.
  KernelEntry &kernel(const char *source, const char *kernelName);
  // The last kernel looked up, since a loop dispatches the same one again
  // and again.
  const char *lastSource = nullptr;
  KernelEntry *lastKernel = nullptr;
  // Remembers an enqueued command.
  void track(cl::Event event, CommandKind kind, const char *name,
             std::uint64_t bytes, bool mapped,
             std::chrono::steady_clock::time_point enqueued);
  // Accounts for the finished commands (their device times into the
  // statistics and the trace); with `wait`, waits for the queue first.
  // Throws ferry::Error naming the first command that failed (when
  // `report`).
  void collect(bool wait, bool report = true);
};

std::shared_ptr<Session> createSession();
// The session of an Accelerator, created on first use.
Session &sessionFor(std::shared_ptr<Session> &slot);

// --- Buffer bookkeeping (Transfers.cpp) ----------------------------------
struct DeviceShadow {
  cl::Context context; // the context the buffer lives in
  cl::Buffer buffer;
  // The buffer is the host storage itself (CL_MEM_USE_HOST_PTR on a
  // unified-memory device): transfers are maps, not copies.
  bool zeroCopy = false;
  cl::Event last; // the last command enqueued on it
  // The queue of a kernel enqueued without an event that may still use the
  // host storage in place (zeroCopy): waiting for the buffer finishes it.
  cl::CommandQueue pendingKernels;
};

// Which copy of a buffer.
enum class Side { Host, Device };
using Piece = RangeSet::Interval; // bytes [first, last) of a buffer

// Library access to BufferBase's bookkeeping, and the validity transitions
// of the transfer calls and launches (Validity.cpp). Ranges are bytes
// [first, last) of the buffer; a range reaching its end from 0 is the whole
// buffer, kept by the flags alone. Every transition keeps each byte valid
// on at least one side, and keeps deviceNewerBuffers() listing exactly the
// buffers with a host-stale range (as of their last change).
struct BufferAccess {
  static std::shared_ptr<DeviceShadow> &shadow(const BufferBase &b) {
    return b.shadow_;
  }
  // b now has a device copy (buffersOnDevice lists it until it goes).
  static void joinOnDevice(const BufferBase &b) { b.joinOnDevice(); }
  // The device's copy has come back into the host storage.
  static void handedOut(const BufferBase &b) { b.patternSize_ = 0; }
  // b's validity was set in this epoch (or carried into it): it says what
  // each side really holds, not only what the host may have changed since.
  static bool live(const BufferBase &b) { return b.live(); }
  // Starts the current epoch for b if it is in an older one: the host may
  // have changed it, so only the host copy is valid, unless keepOnDevice
  // carried b's state into this epoch.
  static void touch(const BufferBase &b) {
    if (b.epoch_ != currentEpoch())
      startEpoch(b);
  }
  // keepOnDevice: b's state as it is now carries into the next epoch.
  static void keep(const BufferBase &b) {
    touch(b);
    b.keptInto_ = currentEpoch() + 1;
  }
  // ferry::forgetDeviceCopies: the host copy, valid whole, is the latest;
  // the device copy is stale. Not for a buffer only compute code uses, or
  // one whose device copy holds newer data: the host wrote nothing there.
  static void forget(const BufferBase &b) {
    touch(b);
    if (b.computeOnly_ || b.hostReadsOnly_ || !b.hostValid_)
      return;
    b.deviceValid_ = false;
    b.partial_.reset();
  }
  // ComputeContext::keepOnDevice: into every later epoch.
  static void keepAlways(const BufferBase &b) {
    touch(b);
    b.computeOnly_ = true;
  }
  static bool keptAlways(const BufferBase &b) { return b.computeOnly_; }
  // ferry::HomeAtScopeEnd: while a scope holds b, copies home wait, and
  // what the scope's computes leave carries into its next.
  static void deferHome(const BufferBase &b,
                        std::uint64_t from = currentEpoch() + 1) {
    if (b.homeDeferred_++ == 0)
      b.deferredFrom_ = from;
  }
  // The scope's end: whether it was the last scope holding b.
  static bool lastDeferral(const BufferBase &b) { return b.homeDeferred_ == 1; }
  static void endDeferral(const BufferBase &b) {
    if (b.homeDeferred_ != 0)
      --b.homeDeferred_;
  }
  static bool homeDeferred(const BufferBase &b) { return b.homeDeferred_ != 0; }
  // ComputeContext::keepDeviceCopy: into every later epoch, and the exit's
  // net still brings it home.
  static void keepValidAlways(const BufferBase &b) {
    touch(b);
    b.hostReadsOnly_ = true;
  }

  // The range was copied to the destination: valid there (the other side
  // keeps its validity).
  static void copiedToDevice(const BufferBase &b, std::size_t first,
                             std::size_t last);
  static void copiedToHost(const BufferBase &b, std::size_t first,
                           std::size_t last);
  // The range was written on one side: valid there, stale on the other.
  static void writtenOnHost(const BufferBase &b, std::size_t first,
                            std::size_t last);
  static void writtenOnDevice(const BufferBase &b, std::size_t first,
                              std::size_t last);
  // Nothing on the device is valid (a fresh device buffer): the host's copy
  // is all there is.
  static void deviceLost(const BufferBase &b) {
    writtenOnHost(b, 0, b.bytes_);
  }
  // The pieces of [first, last) stale on `side`, in order, into `out`
  // (cleared first). With first == last == 0 on a zero-byte buffer whose
  // side is stale, the one empty piece [0, 0).
  static void stalePieces(const BufferBase &b, Side side, std::size_t first,
                          std::size_t last, std::vector<Piece> &out);
  // The pieces of [first, last) valid on `side` (the rest of it), in order,
  // into `out`; likewise [0, 0) for a zero-byte buffer whose side is valid.
  static void validPieces(const BufferBase &b, Side side, std::size_t first,
                          std::size_t last, std::vector<Piece> &out);

private:
  static void startEpoch(const BufferBase &b);
  static PartialValidity &partial(const BufferBase &b);
  static void settle(const BufferBase &b);
};

// b's device buffer in the session's context, allocated (at least 1 byte) on
// first use; a shadow from another context is replaced and the device copy
// marked stale.
cl::Buffer &deviceBuffer(Session &s, const BufferBase &b);
// Unconditional copies of bytes [first, last) of b (the whole buffer
// without them), each one transfer, counted in the statistics (as partial
// when it is less than the whole buffer) and traced. A copy in is enqueued
// without waiting when `async` (the planned policy; see Transfers.cpp for
// when the host may touch the buffer again); copies out wait, once for all
// the pieces given. Zero-byte copies do nothing but still update validity.
void copyToDevice(Session &s, const BufferBase &b, bool async);
void copyToDevice(Session &s, const BufferBase &b, std::size_t first,
                  std::size_t last, bool async);
void copyFromDevice(Session &s, const BufferBase &b);
void copyFromDevice(Session &s, const BufferBase &b, const Piece *pieces,
                    std::size_t count);
// Copies b's pieces of [first, last) that are valid on the source: all of
// it, unless the source holds older data than the destination somewhere
// (what a copy of it would lose).
void copyValidToDevice(Session &s, const BufferBase &b, std::size_t first,
                       std::size_t last);
void copyValidFromDevice(Session &s, const BufferBase &b, std::size_t first,
                         std::size_t last);
// Copies b's pieces of [first, last) that are stale on the destination,
// exactly those.
void copyStaleToDevice(Session &s, const BufferBase &b, std::size_t first,
                       std::size_t last);
/// Every piece the host holds valid in [first, last), whatever the device's
/// bookkeeping says of it (the plain toDevice: the host may have written it
/// unseen), but none the device holds newer.
void copyHostValidToDevice(Session &s, const BufferBase &b, std::size_t first,
                           std::size_t last);
void copyStaleFromDevice(Session &s, const BufferBase &b, std::size_t first,
                         std::size_t last);
// Waits for the last command enqueued on b, if any (no throw).
void waitForBuffer(const BufferBase &b);
// The compute is ending by an exception: copies home every buffer of s's
// context whose device copy is newer in part (deviceNewerBuffers), so that
// the host keeps no stale data. Never throws; a copy that fails is left.
void bringHome(Session &s) noexcept;

// --- Statistics.cpp / Trace.cpp ------------------------------------------
// `partial`: fewer bytes than the whole buffer.
void recordToDevice(std::uint64_t bytes, double ms, bool partial = false);
void recordFromDevice(std::uint64_t bytes, double ms, bool partial = false);
void recordDispatch(double ms);
void recordProgramBuild();
void recordProgramCacheHit();
void recordMap(std::uint64_t bytes);
void recordFill(std::uint64_t bytes);
void recordPinned(std::uint64_t bytes);
void recordKernelTime(double ms);
void recordTransferTime(double ms);

// Records a complete ("X") trace event if FERRY_TRACE is set; written at exit.
void traceEvent(const std::string &name, const char *category,
                std::chrono::steady_clock::time_point start, double ms,
                std::uint64_t bytes, bool hasBytes);
// Reads FERRY_TRACE now, so that the file is written at exit even if no
// event is ever recorded.
void traceStart();
// FERRY_TRACE is set: trace events are recorded.
bool tracing();
// The trace JSON of everything recorded so far.
std::string traceJson();

} // namespace detail
} // namespace ferry
