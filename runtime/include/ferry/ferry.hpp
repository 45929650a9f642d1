// Ferry runtime: the only header a Ferry program includes.
//
// Compiled as it is (the reference execution) a Ferry program needs nothing
// but this header: every kernel runs on the host, one work-item after
// another, and no OpenCL is touched. A program rewritten by `ferry rewrite`
// calls ComputeContext::launch and the transfer members, which live in the
// ferry_runtime library (runtime/src) and run the kernels through OpenCL.
//
// This header must not include any OpenCL header.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <cstring>
#include <exception>
#include <type_traits>
#include <tuple>
#include <typeinfo>
#include <thread>
#include <utility>
#include <vector>

// ---------------------------------------------------------------------------
// Annotations. Clang (which the ferry tool is built on) keeps them in the AST;
// every other compiler sees nothing.
#if defined(__clang__)
#define FERRY_KERNEL __attribute__((annotate("ferry.kernel")))
#define FERRY_COMPUTE __attribute__((annotate("ferry.compute")))
#define FERRY_RO __attribute__((annotate("ferry.ro")))
#define FERRY_WO __attribute__((annotate("ferry.wo")))
#define FERRY_RW __attribute__((annotate("ferry.rw")))
#else
#define FERRY_KERNEL
#define FERRY_COMPUTE
#define FERRY_RO
#define FERRY_WO
#define FERRY_RW
#endif

namespace ferry {

// Every failure the runtime reports (OpenCL errors, build failures, bad
// settings) is a ferry::Error.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
void workGroupBarrier(); // <ferry/workgroup.hpp>
}

// kc.barrier(ferry::globalFence) (an extension): a barrier that fences
// buffers (global memory) as well as local memory, whatever Ferry's
// analysis of the kernel finds. Plain kc.barrier() fences global memory
// only where some buffer may be written by one work-item and read by
// another across it (tool/analyses/kernel/BarrierFences.h).
struct GlobalFence {
  explicit constexpr GlobalFence() = default;
};
inline constexpr GlobalFence globalFence{};

// What a kernel sees of its work-item: the global id and the global size in
// each dimension (size 1 for a dimension the range does not have), and,
// for a dispatch with Range::local, its place in its work-group.
struct KernelContext {
  int x, y, z, maxX, maxY, maxZ;
  // The id within the work-group, the work-group's size, the group's id and
  // the number of groups. Without Range::local each work-item counts as a
  // group of its own, but the contract lets no kernel rely on that.
  int localX = 0, localY = 0, localZ = 0;
  int localSizeX = 1, localSizeY = 1, localSizeZ = 1;
  int groupX = 0, groupY = 0, groupZ = 0;
  int groupsX = 1, groupsY = 1, groupsZ = 1;
  // The global id and size as 64-bit integers (an extension), for ranges
  // and buffers past 2^31 elements; the int fields above then hold them
  // truncated, as OpenCL C's (int)get_global_id(0) does. On the device
  // `long` (get_global_id(0) and get_global_size(0) unconverted); only a
  // kernel that names them pays for 64-bit arithmetic.
  long long x64 = 0, y64 = 0, z64 = 0;
  long long maxX64 = 1, maxY64 = 1, maxZ64 = 1;

  // Every work-item of the group waits here until all have arrived, and then
  // sees the others' writes to local memory and to buffers.
  void barrier() const { detail::workGroupBarrier(); }
  // The same, fencing buffers on the device even where Ferry finds that no
  // buffer crosses the barrier (an extension; the reference execution makes
  // no difference).
  void barrier(GlobalFence) const { detail::workGroupBarrier(); }
};

// The global range of a dispatch: 1, 2 or 3 dimensions.
class Range {
public:
  Range(std::size_t nx) : n_{nx, 1, 1}, dims_(1) {}
  Range(std::size_t nx, std::size_t ny) : n_{nx, ny, 1}, dims_(2) {}
  Range(std::size_t nx, std::size_t ny, std::size_t nz)
      : n_{nx, ny, nz}, dims_(3) {}

  int dims() const { return dims_; }
  // Size of dimension d (0, 1 or 2); 1 for a dimension the range lacks.
  std::size_t size(int d) const {
    return (d >= 0 && d < dims_) ? n_[d] : std::size_t(1);
  }
  // Number of work-items.
  std::size_t count() const { return size(0) * size(1) * size(2); }

  // The same range run in work-groups of lx (x ly (x lz)) work-items: one
  // local size for each dimension of the range.
  Range local(std::size_t lx) const { return withLocal(1, lx, 1, 1); }
  Range local(std::size_t lx, std::size_t ly) const {
    return withLocal(2, lx, ly, 1);
  }
  Range local(std::size_t lx, std::size_t ly, std::size_t lz) const {
    return withLocal(3, lx, ly, lz);
  }
  // Whether the dispatch names its work-group size.
  bool hasLocal() const { return hasLocal_; }
  // The work-group size in dimension d; 1 without Range::local.
  std::size_t localSize(int d) const {
    return (hasLocal_ && d >= 0 && d < dims_) ? l_[d] : std::size_t(1);
  }
  // Work-items in one group.
  std::size_t localCount() const {
    return localSize(0) * localSize(1) * localSize(2);
  }
  // Why this range cannot run in its work-groups (a global size that is not
  // a multiple of its local size), or "" when it can.
  std::string localMismatch() const {
    for (int d = 0; d < dims_ && hasLocal_; ++d)
      if (n_[d] % l_[d] != 0)
        return "the global size " + std::to_string(n_[d]) +
               " in dimension " + std::to_string(d) +
               " is not a multiple of the local size " +
               std::to_string(l_[d]);
    return "";
  }

private:
  Range withLocal(int dims, std::size_t lx, std::size_t ly,
                  std::size_t lz) const {
    if (dims != dims_)
      throw Error("ferry::Range::local: a " + std::to_string(dims_) +
                  "-dimensional range takes " + std::to_string(dims_) +
                  " local sizes, not " + std::to_string(dims));
    if (lx == 0 || ly == 0 || lz == 0)
      throw Error("ferry::Range::local: a local size is at least 1");
    Range r = *this;
    r.l_[0] = lx;
    r.l_[1] = ly;
    r.l_[2] = lz;
    r.hasLocal_ = true;
    return r;
  }

  std::size_t n_[3];
  std::size_t l_[3] = {1, 1, 1};
  int dims_;
  bool hasLocal_ = false;
};

} // namespace ferry

#include "ranges.hpp"
#include "workgroup.hpp"
#include "reduction.hpp"
#include "vectors.hpp"

namespace ferry {

// How the transfer policy is chosen: FERRY_POLICY (read once), or
// setPolicyForTesting.
// Whole (an extension, for measuring): the planned transfers with every
// transfer of part of a buffer widened to the whole buffer, and a partial
// write-only launch planned as ferry::woBeyond: what the plan moves when
// only whole buffers move.
enum class Policy { Planned, Kernel, Naive, Whole };

inline const char *policyName(Policy p) {
  switch (p) {
  case Policy::Kernel:
    return "kernel";
  case Policy::Naive:
    return "naive";
  case Policy::Whole:
    return "whole";
  case Policy::Planned:
    break;
  }
  return "planned";
}

// How a kernel uses a buffer argument of a launch.
enum class Access {
  RO,    // the kernel only reads it
  WO,    // the kernel writes and never reads it (see ferry::wo for coverage)
  RW,    // the kernel reads it and/or writes part of it
  Unused // the kernel never touches it
};

// What a program may ask of the device that runs its kernels (an
// extension: acc.device(), cc.device()), to choose a launch shape. On an
// OpenCL device, its CL_DEVICE_* values; in the reference execution and on
// FERRY_DEVICE=host, the host's (referenceDevice below).
struct Device {
  std::string name;                  // as Accelerator::deviceName()
  unsigned computeUnits = 1;         // CL_DEVICE_MAX_COMPUTE_UNITS
  std::size_t maxWorkGroupSize = 1;  // CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::size_t localMemoryBytes = 0;  // CL_DEVICE_LOCAL_MEM_SIZE
  std::size_t globalMemoryBytes = 0; // CL_DEVICE_GLOBAL_MEM_SIZE
};

// Snapshot of the transfer statistics (also written at exit by FERRY_STATS).
struct Statistics {
  std::uint64_t toDeviceCount = 0;
  std::uint64_t toDeviceBytes = 0;
  std::uint64_t fromDeviceCount = 0;
  std::uint64_t fromDeviceBytes = 0;
  std::uint64_t dispatches = 0;
  std::uint64_t programBuilds = 0; // OpenCL programs built from source
  double kernelMs = 0;   // time the device spent running kernels
  double transferMs = 0; // time the device spent in transfers
  // Extensions (after the contract's fields in the JSON):
  std::uint64_t programCacheHits = 0; // programs loaded from the binary cache
  bool unifiedMemory = false; // the device shares the host's memory
  std::uint64_t mapCount = 0; // transfers done as a map, without a copy
  std::uint64_t mapBytes = 0;
  std::uint64_t pinnedBuffers = 0; // host storage allocated pinned
  std::uint64_t pinnedBytes = 0;
  // Of toDevice*, the copies in of a buffer whose host storage still holds
  // what it was made with (`Buffer<T> b(n)`, `b(n, v)`), done as a fill on
  // the device: no bytes crossed the bus.
  std::uint64_t fillCount = 0;
  std::uint64_t fillBytes = 0;
  // Of toDevice* and fromDevice*, the transfers of fewer bytes than the
  // whole buffer: a sub-range call (cc.toDevice(b, first, count)), or one
  // of the stale pieces a guarded call copies.
  std::uint64_t partialToDeviceCount = 0;
  std::uint64_t partialToDeviceBytes = 0;
  std::uint64_t partialFromDeviceCount = 0;
  std::uint64_t partialFromDeviceBytes = 0;
  // Of fromDevice*, the copies the safety net made (fromDeviceAllOf,
  // hostWritesAllOf): buffers the plan could not name.
  std::uint64_t unnamedFromDeviceCount = 0;
  std::uint64_t unnamedFromDeviceBytes = 0;
  std::string device;    // "reference", "host", or the OpenCL device
  std::string policy;    // "planned", "kernel", "naive" or "whole"
};

template <class T> class Buffer;
class ComputeContext;
class Accelerator;

namespace detail {

struct Session;      // an Accelerator's device state (library side)
struct DeviceShadow; // a buffer's device copy (library side)
struct BufferAccess; // library access to BufferBase's bookkeeping
class BufferBase;     // every Buffer<T>'s non-template part

// --- Policy state (shared by the header and the library) -------------------
struct PolicyState {
  bool resolved = false; // policy below is final (env read or set by a test)
  Policy policy = Policy::Planned;
};
inline PolicyState &policyState() {
  static PolicyState state;
  return state;
}

// Parses a FERRY_POLICY value; false for an unknown one. Unset or empty
// means planned.
inline bool parsePolicy(const char *text, Policy &out) {
  if (!text || !*text) {
    out = Policy::Planned;
    return true;
  }
  const std::string s(text);
  if (s == "planned")
    out = Policy::Planned;
  else if (s == "kernel")
    out = Policy::Kernel;
  else if (s == "naive")
    out = Policy::Naive;
  else if (s == "whole")
    out = Policy::Whole;
  else
    return false;
  return true;
}

// The policy name to report, without ever throwing (the library validates
// FERRY_POLICY; the reference execution only reports it).
inline const char *reportedPolicyName() {
  const PolicyState &st = policyState();
  if (st.resolved)
    return policyName(st.policy);
  Policy p = Policy::Planned;
  parsePolicy(std::getenv("FERRY_POLICY"), p);
  return policyName(p);
}

// --- Statistics (shared by the reference execution and the library) --------
inline std::string jsonEscape(const std::string &s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
      } else {
        out += ch;
      }
    }
  }
  return out;
}

inline std::string statisticsJson(const Statistics &s) {
  char numbers[1536];
  std::snprintf(numbers, sizeof numbers,
                "\"to_device\": {\"count\": %llu, \"bytes\": %llu}, "
                "\"from_device\": {\"count\": %llu, \"bytes\": %llu}, "
                "\"dispatches\": %llu, \"program_builds\": %llu, "
                "\"kernel_ms\": %.3f, \"transfer_ms\": %.3f, "
                "\"program_cache_hits\": %llu, \"unified_memory\": %s, "
                "\"maps\": {\"count\": %llu, \"bytes\": %llu}, "
                "\"pinned\": {\"count\": %llu, \"bytes\": %llu}, "
                "\"fills\": {\"count\": %llu, \"bytes\": %llu}, "
                "\"partial_to_device\": {\"count\": %llu, \"bytes\": %llu}, "
                "\"partial_from_device\": {\"count\": %llu, \"bytes\": %llu}, "
                "\"unnamed_from_device\": {\"count\": %llu, \"bytes\": %llu}",
                static_cast<unsigned long long>(s.toDeviceCount),
                static_cast<unsigned long long>(s.toDeviceBytes),
                static_cast<unsigned long long>(s.fromDeviceCount),
                static_cast<unsigned long long>(s.fromDeviceBytes),
                static_cast<unsigned long long>(s.dispatches),
                static_cast<unsigned long long>(s.programBuilds), s.kernelMs,
                s.transferMs,
                static_cast<unsigned long long>(s.programCacheHits),
                s.unifiedMemory ? "true" : "false",
                static_cast<unsigned long long>(s.mapCount),
                static_cast<unsigned long long>(s.mapBytes),
                static_cast<unsigned long long>(s.pinnedBuffers),
                static_cast<unsigned long long>(s.pinnedBytes),
                static_cast<unsigned long long>(s.fillCount),
                static_cast<unsigned long long>(s.fillBytes),
                static_cast<unsigned long long>(s.partialToDeviceCount),
                static_cast<unsigned long long>(s.partialToDeviceBytes),
                static_cast<unsigned long long>(s.partialFromDeviceCount),
                static_cast<unsigned long long>(s.partialFromDeviceBytes),
                static_cast<unsigned long long>(s.unnamedFromDeviceCount),
                static_cast<unsigned long long>(s.unnamedFromDeviceBytes));
  return "{\"device\": \"" + jsonEscape(s.device) + "\", \"policy\": \"" +
         jsonEscape(s.policy) + "\", " + numbers + "}\n";
}

// Writes the statistics to `target`: a file path, or "-" for standard error.
// Returns false (after a message on stderr) when the file cannot be written.
inline bool writeStatistics(const Statistics &s, const char *target) {
  const std::string json = statisticsJson(s);
  if (std::string(target) == "-") {
    std::fputs(json.c_str(), stderr);
    std::fflush(stderr);
    return true;
  }
  std::FILE *f = std::fopen(target, "w");
  if (!f) {
    std::fprintf(stderr, "ferry: cannot write FERRY_STATS file '%s'\n",
                 target);
    return false;
  }
  std::fputs(json.c_str(), f);
  return std::fclose(f) == 0;
}

// The process-wide statistics. Constructed at the latest by the first
// Accelerator; its destructor writes FERRY_STATS at exit.
struct StatisticsState {
  Statistics counters; // device and policy are filled in by snapshot()
  std::string device = "reference";
  bool unifiedMemory = false; // the device's, like its name

  Statistics snapshot() const {
    Statistics s = counters;
    s.device = device;
    s.unifiedMemory = unifiedMemory;
    s.policy = reportedPolicyName();
    return s;
  }
  ~StatisticsState() {
    const char *target = std::getenv("FERRY_STATS");
    if (target && *target)
      writeStatistics(snapshot(), target);
  }
};
inline StatisticsState &statisticsState() {
  static StatisticsState state;
  return state;
}
// Constructs the statistics during static initialisation, so that
// FERRY_STATS is written at exit by every program that includes this header
// (an Accelerator constructs them too, should it be built earlier).
inline const bool statisticsAtExit = (statisticsState(), true);

inline double millisecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

// --- Epochs: Accelerator::compute starts a new one --------------------------
inline std::uint64_t &currentEpoch() {
  static std::uint64_t epoch = 1;
  return epoch;
}

// The storage of one object, whose buffers a ferry::HomeAtScopeEnd holds
// whatever their names (ferry::buffersIn).
struct ObjectBytes {
  const void *first = nullptr;
  std::size_t size = 0;
  bool holds(const void *p) const {
    auto at = reinterpret_cast<std::uintptr_t>(p);
    auto begin = reinterpret_cast<std::uintptr_t>(first);
    return at >= begin && at - begin < size;
  }
};

// --- Library hooks -----------------------------------------------------------
// Filled in by the library when the program instantiates
// ComputeContext::launch (i.e. when it is a rewritten program). A reference
// program never fills them and so never touches the library or OpenCL.
struct RuntimeHooks {
  std::shared_ptr<Session> (*createSession)() = nullptr;
  std::string (*deviceName)(const Session &) = nullptr;
  // Host storage of a buffer of `bytes` bytes (pinned where the device
  // allows), or null for plain allocation; *cookie is what freeHost takes.
  void *(*allocateHost)(std::size_t bytes, void **cookie) = nullptr;
  void (*freeHost)(void *cookie) = nullptr;
  // Waits for the device's pending commands on a buffer (before its storage
  // is freed or replaced).
  void (*waitForBuffer)(const BufferBase &) = nullptr;
  // The end of a compute: waits for the queue; `report` false when an
  // exception is already on its way (then nothing more is thrown). When
  // the compute ends by an exception, it first copies home every buffer
  // whose device copy is newer (deviceNewerBuffers).
  void (*finishCompute)(Session &, bool report) = nullptr;
  // Accelerator::keepOnDevice: the buffer's validity carries into the next
  // compute.
  void (*keepOnDevice)(Session &, const BufferBase &) = nullptr;
  // cc.finish(): waits for every command enqueued so far, reporting a
  // failed one (as the end of a compute does).
  void (*finish)(Session &) = nullptr;
  // ferry::forgetDeviceCopies: the buffer's device copy counts as stale.
  void (*forgetDeviceCopy)(const BufferBase &) = nullptr;
  // acc.device(), cc.device(): the session's device (created on first need).
  Device (*device)(std::shared_ptr<Session> &) = nullptr;
  // ferry::HomeAtScopeEnd: the session whose computes leave these buffers
  // on the device from here (created on first need), or null where the
  // plan's lines do nothing (the host device, the kernel and naive
  // policies); then the buffers, at the scope's end, come home (`report`
  // false while an exception is on its way: then nothing is thrown).
  // Given objects too (ObjectBytes): the buffers stored inside one join
  // the scope's list, those with a device copy now and each that gets one
  // while the scope is open.
  Session *(*deferHome)(std::shared_ptr<Session> &,
                        std::vector<const BufferBase *> &buffers,
                        const std::vector<ObjectBytes> &objects) = nullptr;
  void (*bringHomeDeferred)(Session &, std::vector<const BufferBase *> &buffers,
                            bool report) = nullptr;
};
// The device the reference execution (and FERRY_DEVICE=host) reports: the
// host. Its cores as compute units; 1024 work-items a group and 64 KiB of
// local memory, the limits of common GPUs, since the reference execution
// itself runs groups of any size (each work-item that waits at a barrier
// takes a fiber) and local arrays of any size (on the heap), so values a
// GPU accepts make a launch shape chosen from them portable; the host's
// physical memory as global memory, read from Linux's /proc/meminfo (0
// elsewhere: <unistd.h>'s sysconf would put POSIX's names, `read`, `link`,
// `sync`, into every Ferry program's global namespace).
inline Device referenceDevice(const char *name) {
  Device d;
  d.name = name;
  const unsigned cores = std::thread::hardware_concurrency();
  d.computeUnits = cores > 0 ? cores : 1;
  d.maxWorkGroupSize = 1024;
  d.localMemoryBytes = 64 * 1024;
  if (std::FILE *f = std::fopen("/proc/meminfo", "r")) {
    unsigned long long kib = 0;
    if (std::fscanf(f, "MemTotal: %llu kB", &kib) == 1)
      d.globalMemoryBytes = static_cast<std::size_t>(kib) * 1024;
    std::fclose(f);
  }
  return d;
}

inline RuntimeHooks &runtimeHooks() {
  static RuntimeHooks hooks;
  return hooks;
}
bool registerLibrary(); // defined in the library (Session.cpp)
template <class Tag> struct LibraryRegistration {
  static const bool registered;
};
template <class Tag>
const bool LibraryRegistration<Tag>::registered = registerLibrary();

// --- Buffer bookkeeping ------------------------------------------------------
// The parts of a buffer that are stale on each side, in bytes, while some
// side is valid only in part (see BufferBase). Every byte is valid on at
// least one side: the two sets never overlap.
struct PartialValidity {
  RangeSet hostStale;   // the device holds newer data here
  RangeSet deviceStale; // the host holds newer data here
};

// The buffers whose device copy may be newer than the host's somewhere
// (some range host-stale), so that a compute ended by an exception can copy
// them home. Kept by the library as validity changes; a buffer leaves it
// when it is destroyed, moved from or whole on the host again. Never
// destroyed, since buffers may be freed during exit.
inline std::vector<const BufferBase *> &deviceNewerBuffers() {
  static auto *buffers = new std::vector<const BufferBase *>();
  return *buffers;
}

// The buffers that have a device copy, so that a host write the plan cannot
// attribute to a buffer it names can make every buffer it may touch stale on
// the device (ComputeContext::hostWritesAllOf). Kept like deviceNewerBuffers:
// a buffer joins when the library gives it a device copy and leaves when the
// copy goes (destroyed, moved from, storage replaced).
inline std::vector<const BufferBase *> &buffersOnDevice() {
  static auto *buffers = new std::vector<const BufferBase *>();
  return *buffers;
}

// The non-template part of every Buffer<T>: host storage, validity of the
// host and device copies, the epoch they were last checked in, and the
// device shadow (allocated by the library on first use on a device).
// The bookkeeping is mutable: a const Buffer still has a device copy to keep.
//
// Validity is kept per byte range, cheaply in the common case: two flags
// say whether all of the host copy and all of the device copy are valid,
// and only while some side is valid in part does partial_ hold the stale
// ranges of each (docs/validity-ranges.md).
// Validity as seen now: in an epoch after the one the flags were last set
// in, only the host copy counts as valid (the host may have written it),
// unless Accelerator::keepOnDevice carried the buffer's state into this
// epoch.
class BufferBase {
public:
  void *hostPointer() const { return host_; }
  std::size_t byteSize() const { return bytes_; }
  // All of the host copy is valid (none of it older than the device's).
  bool hostValid() const { return hostValid_ || !live(); }
  // All of the device copy is valid.
  bool deviceValid() const { return deviceValid_ && live(); }
  std::uint64_t epoch() const { return epoch_; }
  bool hasDeviceShadow() const { return shadow_ != nullptr; }
  // The element type of the Buffer<T> this is (typeid(T)).
  const std::type_info &elementType() const { return *element_; }
  // The host storage holds nothing but the value it was made with, repeated
  // (its bytes: fillPattern()); false once anything may have written it.
  bool pristine() const { return patternSize_ != 0; }
  const unsigned char *fillPattern() const { return pattern_; }
  std::size_t fillPatternSize() const { return patternSize_; }

  BufferBase(const BufferBase &) = delete;
  BufferBase &operator=(const BufferBase &) = delete;

protected:
  BufferBase() = default;
  BufferBase(BufferBase &&other) noexcept { take(other); }
  BufferBase &operator=(BufferBase &&other) noexcept {
    if (this != &other)
      take(other);
    return *this;
  }
  ~BufferBase() = default;

  void setStorage(void *host, std::size_t bytes,
                  const std::type_info &element) {
    host_ = host;
    bytes_ = bytes;
    element_ = &element;
  }
  // Every element is `value`: a device copy can be a fill (OpenCL takes
  // patterns of 1 to 128 bytes, a power of two).
  template <class T> void setPristine(const T &value) {
    constexpr std::size_t n = sizeof(T);
    if constexpr (n <= sizeof(pattern_) && (n & (n - 1)) == 0 &&
                  (std::is_arithmetic<T>::value ||
                   std::has_unique_object_representations<T>::value)) {
      std::memcpy(pattern_, &value, n);
      patternSize_ = static_cast<unsigned char>(n);
    }
  }
  // The host storage may be written from here on (through a const_cast
  // of what a const accessor gave, too).
  // A test before the store: element reads in host loops stay loads.
  void handedOut() const noexcept {
    if (patternSize_ != 0)
      patternSize_ = 0;
  }
  // Before the host storage is freed or replaced: the device's commands on
  // it finish, and the device copy (which may live in that storage) goes.
  void releaseDevice() noexcept {
    leaveDeviceNewer();
    if (shadow_) {
      if (auto wait = runtimeHooks().waitForBuffer)
        wait(*this);
      shadow_.reset();
    }
    leaveOnDevice();
    partial_.reset();
  }

private:
  friend struct BufferAccess;
  static constexpr std::size_t notListed =
      std::numeric_limits<std::size_t>::max();

  // The state is this epoch's: set in it, or carried into it.
  bool live() const {
    return epoch_ == currentEpoch() || keptInto_ == currentEpoch() ||
           computeOnly_ || hostReadsOnly_ || carriedByScope();
  }
  // A ferry::HomeAtScopeEnd holds the buffer, and its state was set by a
  // compute inside the scope: none outside it set this state, so it carries
  // over (a state from before the scope follows the contract's rule: the
  // host may have written the buffer since).
  bool carriedByScope() const {
    return homeDeferred_ != 0 && epoch_ >= deferredFrom_;
  }
  // A registry of buffers (deviceNewerBuffers, buffersOnDevice) in which
  // each knows its place (`slot`), so that leaving it is O(1).
  using Slot = std::size_t &(*)(const BufferBase &);
  static std::size_t &newerSlot(const BufferBase &b) { return b.listed_; }
  static std::size_t &onDeviceSlot(const BufferBase &b) { return b.onDevice_; }
  void join(std::vector<const BufferBase *> &all, Slot slot) const {
    if (slot(*this) == notListed) {
      all.push_back(this);
      slot(*this) = all.size() - 1;
    }
  }
  void leave(std::vector<const BufferBase *> &all, Slot slot) const noexcept {
    std::size_t &at = slot(*this);
    if (at != notListed) {
      all[at] = all.back();
      slot(*all[at]) = at;
      all.pop_back();
      at = notListed;
    }
  }
  void joinDeviceNewer() const { join(deviceNewerBuffers(), newerSlot); }
  void leaveDeviceNewer() const noexcept {
    leave(deviceNewerBuffers(), newerSlot);
  }
  void joinOnDevice() const { join(buffersOnDevice(), onDeviceSlot); }
  void leaveOnDevice() const noexcept { leave(buffersOnDevice(), onDeviceSlot); }

  void take(BufferBase &other) noexcept {
    leaveDeviceNewer();
    leaveOnDevice();
    host_ = other.host_;
    element_ = other.element_;
    bytes_ = other.bytes_;
    hostValid_ = other.hostValid_;
    deviceValid_ = other.deviceValid_;
    partial_ = std::move(other.partial_);
    epoch_ = other.epoch_;
    keptInto_ = other.keptInto_;
    // (computeOnly_ and hostReadsOnly_ stay: they say how the program uses
    // this object, a member the rewriter named, not the data moving in. A
    // double buffer swapped, `std::swap(cur_, next_)`, must not carry
    // next_'s "never comes home" into cur_.)
    homeDeferred_ = other.homeDeferred_;
    deferredFrom_ = other.deferredFrom_;
    shadow_ = std::move(other.shadow_);
    listed_ = other.listed_;
    if (listed_ != notListed)
      deviceNewerBuffers()[listed_] = this;
    onDevice_ = other.onDevice_;
    if (onDevice_ != notListed)
      buffersOnDevice()[onDevice_] = this;
    std::memcpy(pattern_, other.pattern_, sizeof(pattern_));
    patternSize_ = other.patternSize_;
    other.patternSize_ = 0;
    other.host_ = nullptr;
    other.bytes_ = 0;
    other.hostValid_ = true;
    other.deviceValid_ = false;
    other.keptInto_ = 0;
    other.homeDeferred_ = 0;
    other.listed_ = notListed;
    other.onDevice_ = notListed;
    other.shadow_.reset();
  }

  void *host_ = nullptr;
  std::size_t bytes_ = 0;
  mutable bool hostValid_ = true;    // no byte of the host copy is stale
  mutable bool deviceValid_ = false; // no byte of the device copy is stale
  // The stale ranges of each side, while some side is valid only in part;
  // null when each side is valid or stale as a whole (the flags say which).
  mutable std::unique_ptr<PartialValidity> partial_;
  mutable std::uint64_t epoch_ = currentEpoch();
  // The epoch that keepOnDevice carries this state into; 0: none.
  mutable std::uint64_t keptInto_ = 0;
  // ComputeContext::keepOnDevice: only compute code uses this buffer, so
  // its state carries into every later epoch.
  mutable bool computeOnly_ = false;
  // ComputeContext::keepDeviceCopy: code outside computes only reads this
  // buffer, so its state carries into every later epoch too.
  mutable bool hostReadsOnly_ = false;
  // How many ferry::HomeAtScopeEnd scopes hold this buffer: while any does,
  // its state carries into every later epoch, and the computes' copies home
  // wait for the scope's end.
  mutable unsigned homeDeferred_ = 0;
  // The epoch of the first compute inside the outermost such scope.
  mutable std::uint64_t deferredFrom_ = 0;
  // The buffer's place in deviceNewerBuffers(), or notListed.
  mutable std::size_t listed_ = notListed;
  // The buffer's place in buffersOnDevice(), or notListed.
  mutable std::size_t onDevice_ = notListed;
  const std::type_info *element_ = &typeid(void);
  mutable std::shared_ptr<DeviceShadow> shadow_;
  unsigned char pattern_[128] = {};
  mutable unsigned char patternSize_ = 0;
};

} // namespace detail

// ---------------------------------------------------------------------------
// Host-owned contiguous storage with a device shadow that Ferry manages.
template <class T> class Buffer : public detail::BufferBase {
  static_assert(std::is_trivially_copyable<T>::value,
                "ferry::Buffer<T> needs a trivially copyable T");
  static_assert(!std::is_const<T>::value && !std::is_volatile<T>::value,
                "ferry::Buffer<T> needs an unqualified T");

public:
  using value_type = T;
  using iterator = T *;
  using const_iterator = const T *;

  Buffer() { setStorage(nullptr, 0, typeid(T)); }
  // n value-initialised elements.
  explicit Buffer(std::size_t n) : data_(allocate(n)), size_(n) {
    sync();
    setPristine(T());
  }
  // n copies of value.
  Buffer(std::size_t n, const T &value) : data_(allocate(n)), size_(n) {
    for (std::size_t i = 0; i < n; ++i)
      data_[i] = value;
    sync();
    setPristine(value);
  }
  Buffer(std::initializer_list<T> values)
      : data_(allocate(values.size())), size_(values.size()) {
    std::size_t i = 0;
    for (const T &v : values)
      data_[i++] = v;
    sync();
  }

  Buffer(Buffer &&other) noexcept
      : detail::BufferBase(std::move(other)), data_(std::move(other.data_)),
        size_(other.size_) {
    other.size_ = 0;
  }
  Buffer &operator=(Buffer &&other) noexcept {
    if (this != &other) {
      releaseDevice(); // before this buffer's storage goes
      detail::BufferBase::operator=(std::move(other));
      data_ = std::move(other.data_);
      size_ = other.size_;
      other.size_ = 0;
    }
    return *this;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { releaseDevice(); }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

  // The accessors hand out the host storage: from then on it may hold
  // anything (a const one's result may be const_cast and written).
  T &operator[](std::size_t i) {
    handedOut();
    return data_[i];
  }
  const T &operator[](std::size_t i) const {
    handedOut();
    return data_[i];
  }
  T *data() {
    handedOut();
    return data_.get();
  }
  const T *data() const {
    handedOut();
    return data_.get();
  }
  T *begin() {
    handedOut();
    return data_.get();
  }
  T *end() {
    handedOut();
    return data_.get() + size_;
  }
  const T *begin() const {
    handedOut();
    return data_.get();
  }
  const T *end() const {
    handedOut();
    return data_.get() + size_;
  }
  const T *cbegin() const { return begin(); }
  const T *cend() const { return end(); }

private:
  // Frees the storage: plain (new[]) or the library's (pinned).
  struct Release {
    void *cookie = nullptr;
    void operator()(T *p) const noexcept {
      if (cookie)
        detail::runtimeHooks().freeHost(cookie);
      else
        delete[] p;
    }
  };
  using Storage = std::unique_ptr<T[], Release>;

  // n value-initialised elements: from the library in a rewritten program
  // (pinned host memory where the device has it), else new[].
  static Storage allocate(std::size_t n) {
    if (auto pinned = detail::runtimeHooks().allocateHost) {
      void *cookie = nullptr;
      if (n > 0 && n <= std::numeric_limits<std::size_t>::max() / sizeof(T))
        if (void *p = pinned(n * sizeof(T), &cookie)) {
          T *t = static_cast<T *>(p);
          for (std::size_t i = 0; i < n; ++i)
            ::new (static_cast<void *>(t + i)) T();
          return Storage(t, Release{cookie});
        }
    }
    return Storage(new T[n](), Release{});
  }
  void sync() { setStorage(data_.get(), size_ * sizeof(T), typeid(T)); }

  Storage data_;
  std::size_t size_ = 0;
};

// What a kernel's covering store `b[row * width + col]` writes, where the
// column is the work-item's id in range dimension colDim, below colBound
// (or, with colDim -1, a loop over [0, colBound): a row per work-item),
// and the row its id in dimension rowDim below rowBound or, with rowDim -1,
// a loop over [0, rowBound) (`for (j = 0; j < NVAR; ++j) b[i + j * n]`).
// The store covers the first rows * width elements when the columns reach
// the width; otherwise the runtime counts on none of it (see ferry::wo).
// Written by the rewriter as ferry::grid(…); the bounds are the dispatch's
// own arguments, so only the run knows them.
struct GridBound {
  static constexpr std::size_t unbounded =
      std::numeric_limits<std::size_t>::max();
  bool valid = false;
  int colDim = 0;
  std::size_t colBound = unbounded;
  std::size_t width = 0;
  int rowDim = -1;
  std::size_t rowBound = unbounded;
  // A volume (ferry::volume): `planes` planes of width x planeRows
  // elements, each whole only when the range's rows reach planeRows.
  std::size_t planeRows = 0;
  std::size_t planes = 1;

  // The elements [0, covered) a launch over `r` writes.
  std::size_t covered(const Range &r) const {
    const std::size_t cols =
        colDim < 0 ? colBound : std::min(r.size(colDim), colBound);
    if (width == 0 || cols < width)
      return 0;
    if (planeRows > 0) {
      if (r.size(rowDim) < planeRows)
        return 0;
      const std::size_t plane = width * planeRows;
      if (plane / planeRows != width ||
          (planes > 0 && plane > std::numeric_limits<std::size_t>::max() / planes))
        return std::numeric_limits<std::size_t>::max();
      return plane * planes;
    }
    const std::size_t rows =
        rowDim < 0 ? rowBound : std::min(r.size(rowDim), rowBound);
    if (rows > std::numeric_limits<std::size_t>::max() / width)
      return std::numeric_limits<std::size_t>::max();
    return rows * width;
  }
};

namespace detail {
// A bound as the kernel sees it: a negative one admits nothing.
template <class I> std::size_t clampBound(I bound) {
  static_assert(std::is_integral<I>::value, "a bound is an integer");
  if constexpr (std::is_signed<I>::value)
    return bound > 0 ? static_cast<std::size_t>(
                           static_cast<std::make_unsigned_t<I>>(bound))
                     : 0;
  else
    return static_cast<std::size_t>(bound);
}
struct Unbounded {};
inline std::size_t clampBound(Unbounded) { return GridBound::unbounded; }
} // namespace detail

// No guard on a dimension of ferry::grid.
constexpr detail::Unbounded unbounded{};

// How many times `for (k = from; k < to; ++k)` runs.
template <class From, class To> long long tripCount(From from, To to) {
  const long long f = static_cast<long long>(from);
  const long long t = static_cast<long long>(to);
  return t > f ? t - f : 0;
}

// A kernel that walks a volume plane by plane (`c = row * width + col`,
// then `c += width * planeRows` per plane, Rodinia hotspot3D): it covers
// planes * width * planeRows elements when the range's columns reach the
// width and its rows reach planeRows.
template <class Width, class PlaneRows, class Planes>
GridBound volume(int colDim, Width width, int rowDim, PlaneRows planeRows,
                 Planes planes) {
  GridBound g;
  g.valid = true;
  g.colDim = colDim;
  g.width = detail::clampBound(width);
  g.rowDim = rowDim;
  g.planeRows = detail::clampBound(planeRows);
  g.planes = detail::clampBound(planes);
  return g;
}

template <class ColBound, class Width, class RowBound>
GridBound grid(int colDim, ColBound colBound, Width width, int rowDim,
               RowBound rowBound) {
  GridBound g;
  g.valid = true;
  g.colDim = colDim;
  g.colBound = detail::clampBound(colBound);
  g.width = detail::clampBound(width);
  g.rowDim = rowDim;
  g.rowBound = detail::clampBound(rowBound);
  return g;
}

// A buffer argument of a rewritten launch, with the kernel's access to it.
// T is const for a read-only view of a const buffer.
template <class T> class BufferArg {
public:
  using Element = std::remove_const_t<T>;
  // No bound: the kernel may touch every element of its range.
  static constexpr std::size_t unbounded =
      std::numeric_limits<std::size_t>::max();

  BufferArg(const Buffer<Element> &b, Access a, std::size_t bound = unbounded,
            bool declared = false, GridBound grid = GridBound(),
            bool beyond = false, std::size_t first = 0)
      : buffer_(const_cast<Buffer<Element> *>(&b)), access_(a),
        bound_(bound), declared_(declared), grid_(grid), beyond_(beyond),
        first_(first) {}

  Buffer<Element> &buffer() const { return *buffer_; }
  Access access() const { return access_; }
  // For a WO argument, the kernel writes elements [0, min(range count,
  // bound())); unbounded when the rewriter gave no bound.
  std::size_t bound() const { return bound_; }
  // A WO argument the user declared FERRY_WO (see ferry::woDeclared).
  bool declared() const { return declared_; }
  // For a WO argument passed as wo(b, ferry::grid(…)): what it covers.
  const GridBound &grid() const { return grid_; }
  // For a WO argument passed as woBeyond: the kernel may store past what
  // the range covers.
  bool beyond() const { return beyond_; }
  // For a WO argument passed as woFrom: the first element its store covers.
  std::size_t first() const { return first_; }
  T *data() const { return buffer_->data(); }

private:
  Buffer<Element> *buffer_;
  Access access_;
  std::size_t bound_;
  bool declared_;
  GridBound grid_;
  bool beyond_;
  std::size_t first_;
};

template <class T> BufferArg<T> ro(Buffer<T> &b) {
  return BufferArg<T>(b, Access::RO);
}
template <class T> BufferArg<const T> ro(const Buffer<T> &b) {
  return BufferArg<const T>(b, Access::RO);
}
// Write-only arguments. The rewriter's planner emits no copy-in for a wo
// argument. The kernel writes every element of [0, covered) and no others,
// where covered is the range's element count (Range::count()), or
// min(count, bound) for wo(b, bound), the form the rewriter emits when the
// covering store is guarded by `if (kc.x < bound)` (a negative bound covers
// nothing), or what a grid covers (wo(b, ferry::grid(…))). When
// covered < b.size():
//  * FERRY_POLICY=planned on an OpenCL device: nothing is copied in;
//    [0, covered) becomes valid on the device and stale on the host, and
//    the rest of b keeps the validity it had (per range), so a later
//    guarded copy moves only what is stale. A later launch that reads b
//    (ro, rw) copies in first what is still stale there, since the
//    rewriter plans b as the device's from then on. Except for a grid
//    whose columns do not match its width (it leaves gaps, or writes past
//    covered): that is planned as woBeyond.
//  * FERRY_POLICY=kernel: b is copied in before the launch (kernel policy
//    keeps no validity across dispatches), since it is copied out after.
//  * FERRY_POLICY=naive copies every argument in anyway; on the host device
//    and in the reference execution nothing is copied at all.
// When covered >= b.size() nothing is copied in under any policy.
//
// woBeyond(b), woBeyond(b, bound), woBeyond(b, grid): the kernel writes
// every element of [0, covered) and may store elsewhere too (the rewriter
// could not prove it stores nowhere else). Under FERRY_POLICY=planned, when
// covered < b.size(), the parts of the device copy still stale are copied
// in first (a guarded transfer, counted and traced like any other), so that
// the elements the kernel leaves alone keep the host's values, and all of b
// is the device's after. Otherwise as wo.
template <class T> BufferArg<T> wo(Buffer<T> &b) {
  return BufferArg<T>(b, Access::WO);
}
// A write-only argument the user declared FERRY_WO, the form the rewriter
// emits for such a parameter whatever the analysis inferred. FERRY_WO is the
// user's promise that the kernel overwrites every element the host reads
// afterwards, wherever the range leaves elements alone (a work-item that
// writes a column or a block covers more than one element). So:
//  * FERRY_POLICY=planned: never copied in, whatever the range covers.
//  * FERRY_POLICY=kernel: as wo(b) (copied in when the range covers fewer
//    elements than b has, since the whole buffer is copied out after).
//  * FERRY_POLICY=naive, the host device and the reference execution: as
//    wo(b).
template <class T> BufferArg<T> woDeclared(Buffer<T> &b) {
  return BufferArg<T>(b, Access::WO, BufferArg<T>::unbounded, true);
}
template <class T, class BoundIntegral,
          std::enable_if_t<std::is_integral<BoundIntegral>::value, int> = 0>
BufferArg<T> wo(Buffer<T> &b, BoundIntegral bound) {
  return BufferArg<T>(b, Access::WO, detail::clampBound(bound));
}
// The store is a grid (see ferry::GridBound): covered is what the grid
// covers of the launch's range.
template <class T> BufferArg<T> wo(Buffer<T> &b, GridBound grid) {
  return BufferArg<T>(b, Access::WO, BufferArg<T>::unbounded, false, grid);
}
// woFrom(b, first), woFrom(b, first, bound): as wo, for a store at the
// linear index plus an offset (`out[kc.x + n]`, a grid's interior rows
// `next[(kc.y + 1) * kc.maxX + kc.x]`): the kernel writes every element of
// [first, first + covered) and no others. (A negative first would be a store
// before the buffer's start.)
template <class T, class FirstIntegral,
          std::enable_if_t<std::is_integral<FirstIntegral>::value, int> = 0>
BufferArg<T> woFrom(Buffer<T> &b, FirstIntegral first) {
  return BufferArg<T>(b, Access::WO, BufferArg<T>::unbounded, false,
                      GridBound(), false, detail::clampBound(first));
}
template <class T, class FirstIntegral, class BoundIntegral,
          std::enable_if_t<std::is_integral<FirstIntegral>::value &&
                               std::is_integral<BoundIntegral>::value,
                           int> = 0>
BufferArg<T> woFrom(Buffer<T> &b, FirstIntegral first, BoundIntegral bound) {
  return BufferArg<T>(b, Access::WO, detail::clampBound(bound), false,
                      GridBound(), false, detail::clampBound(first));
}
template <class T> BufferArg<T> woBeyond(Buffer<T> &b) {
  return BufferArg<T>(b, Access::WO, BufferArg<T>::unbounded, false,
                      GridBound(), true);
}
template <class T, class BoundIntegral,
          std::enable_if_t<std::is_integral<BoundIntegral>::value, int> = 0>
BufferArg<T> woBeyond(Buffer<T> &b, BoundIntegral bound) {
  return BufferArg<T>(b, Access::WO, detail::clampBound(bound), false,
                      GridBound(), true);
}
template <class T> BufferArg<T> woBeyond(Buffer<T> &b, GridBound grid) {
  return BufferArg<T>(b, Access::WO, BufferArg<T>::unbounded, false, grid,
                      true);
}
template <class T> BufferArg<T> rw(Buffer<T> &b) {
  return BufferArg<T>(b, Access::RW);
}
template <class T> BufferArg<T> unused(Buffer<T> &b) {
  return BufferArg<T>(b, Access::Unused);
}
template <class T> BufferArg<const T> unused(const Buffer<T> &b) {
  return BufferArg<const T>(b, Access::Unused);
}

namespace detail {

template <class X> struct IsBuffer : std::false_type {};
template <class T> struct IsBuffer<Buffer<T>> : std::true_type {};
template <class X> struct IsBufferArg : std::false_type {};
template <class T> struct IsBufferArg<BufferArg<T>> : std::true_type {};

// The size of the buffer bound to a reducer (or 1 for any other argument).
template <class A> std::size_t reductionTargetSize(const A &arg) {
  if constexpr (IsBuffer<A>::value)
    return arg.size();
  else if constexpr (IsBufferArg<A>::value)
    return arg.buffer().size();
  else
    return 1;
}

// A reducer combines into element 0 of its buffer, so the buffer has one;
// and the kernel runs in work-groups Ferry chooses.
template <class K, class... A>
void checkReductions(const Range &r, const char *dispatch, const A &...args) {
  using Reducers = ReducerParams<K, sizeof...(A)>;
  if constexpr (Reducers::any) {
    if (r.hasLocal())
      throw Error(std::string(dispatch) +
                  ": a kernel with a reduction (ferry::Sum, Min or Max) runs "
                  "in work-groups Ferry chooses: dispatch it without "
                  "Range::local");
    if (r.count() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw Error(std::string(dispatch) +
                  ": a kernel with a reduction takes a range of fewer than "
                  "2^31 work-items");
    std::size_t i = 0;
    const bool empty =
        (false || ... || (Reducers::at(i++) && reductionTargetSize(args) == 0));
    if (empty)
      throw Error(std::string(dispatch) +
                  ": a reduction combines into element 0 of its buffer, and "
                  "the buffer is empty");
  }
}

// How an argument reaches a kernel run on the host: a buffer as its data
// pointer, everything else as it is.
template <class A> decltype(auto) bindForHost(A &arg) {
  using D = std::remove_cv_t<A>;
  if constexpr (IsBuffer<D>::value)
    return arg.data();
  else if constexpr (IsBufferArg<D>::value)
    return arg.data();
  else
    return (arg);
}

template <class X> struct IsLocalSpanArg : std::false_type {};
template <class T> struct IsLocalSpanArg<LocalSpanArg<T>> : std::true_type {};

// The local memory of a host dispatch's ferry::localSpan arguments: one
// block each, shared by every work-group in turn.
class HostLocalSpans {
public:
  template <class T> LocalSpan<T> allocate(const LocalSpanArg<T> &arg) {
    const std::size_t words =
        (arg.count * sizeof(T) + sizeof(Word) - 1) / sizeof(Word) + 1;
    blocks_.emplace_back(new Word[words]());
    return LocalSpan<T>(reinterpret_cast<T *>(blocks_.back().get()),
                        arg.count);
  }
  bool empty() const { return blocks_.empty(); }

private:
  using Word = std::max_align_t;
  std::vector<std::unique_ptr<Word[]>> blocks_;
};

// What a kernel run on the host receives for one argument, kept for the
// whole dispatch.
template <class A> auto hostArgument(A &arg, HostLocalSpans &spans) {
  using D = std::remove_cv_t<A>;
  if constexpr (IsLocalSpanArg<D>::value)
    return spans.allocate(arg);
  else
    return bindForHost(arg);
}

// Runs every work-item of one range on the host.
template <class K, class Bound> struct HostDispatch {
  K &kernel;
  Bound &bound;
  const Range &range;
  KernelContext kc;

  void run(const KernelContext &item) {
    std::apply([&](auto &...a) { kernel(item, a...); }, bound);
  }

  // Sets the ids of work-item (x, y, z), 64-bit and truncated.
  static void place(KernelContext &c, long long x, long long y, long long z) {
    c.x64 = x;
    c.y64 = y;
    c.z64 = z;
    c.x = static_cast<int>(x);
    c.y = static_cast<int>(y);
    c.z = static_cast<int>(z);
  }

  // Without Range::local: one work-item after another, z, then y, then x
  // innermost, each its own work-group.
  void runItems() {
    for (long long z = 0; z < kc.maxZ64; ++z)
      for (long long y = 0; y < kc.maxY64; ++y)
        for (long long x = 0; x < kc.maxX64; ++x) {
          place(kc, x, y, z);
          kc.groupX = kc.x;
          kc.groupY = kc.y;
          kc.groupZ = kc.z;
          run(kc);
        }
  }

  // With Range::local: one work-group after another (same order), each
  // run by a WorkGroupRunner so that its work-items can meet at barriers.
  void runGroups() {
    kc.localSizeX = static_cast<int>(range.localSize(0));
    kc.localSizeY = static_cast<int>(range.localSize(1));
    kc.localSizeZ = static_cast<int>(range.localSize(2));
    const long long groupsX = kc.maxX64 / kc.localSizeX;
    const long long groupsY = kc.maxY64 / kc.localSizeY;
    const long long groupsZ = kc.maxZ64 / kc.localSizeZ;
    kc.groupsX = static_cast<int>(groupsX);
    kc.groupsY = static_cast<int>(groupsY);
    kc.groupsZ = static_cast<int>(groupsZ);
    WorkGroupRunner runner(range.localCount(), &runItemOf, this);
    for (group[2] = 0; group[2] < groupsZ; ++group[2])
      for (group[1] = 0; group[1] < groupsY; ++group[1])
        for (group[0] = 0; group[0] < groupsX; ++group[0]) {
          kc.groupX = static_cast<int>(group[0]);
          kc.groupY = static_cast<int>(group[1]);
          kc.groupZ = static_cast<int>(group[2]);
          runner.runGroup();
        }
  }
  long long group[3] = {0, 0, 0};

  static void runItemOf(void *self, std::size_t item) {
    HostDispatch &d = *static_cast<HostDispatch *>(self);
    KernelContext kc = d.kc;
    const std::size_t lx = static_cast<std::size_t>(kc.localSizeX);
    const std::size_t ly = static_cast<std::size_t>(kc.localSizeY);
    kc.localX = static_cast<int>(item % lx);
    kc.localY = static_cast<int>(item / lx % ly);
    kc.localZ = static_cast<int>(item / (lx * ly));
    place(kc, d.group[0] * kc.localSizeX + kc.localX,
          d.group[1] * kc.localSizeY + kc.localY,
          d.group[2] * kc.localSizeZ + kc.localZ);
    d.run(kc);
  }
};

// Runs kernel over the range on the host: in its work-groups when the range
// names them (see <ferry/workgroup.hpp>), else one work-item after another.
// `dispatch` names the dispatch in errors.
template <class K, class... A>
void runOnHost(K &kernel, const Range &r, const char *dispatch, A &...args) {
  checkReductions<K>(r, dispatch, args...);
  HostLocalSpans spans;
  auto bound = std::make_tuple(hostArgument(args, spans)...);
  KernelContext kc{0, 0, 0, static_cast<int>(r.size(0)),
                   static_cast<int>(r.size(1)), static_cast<int>(r.size(2))};
  kc.maxX64 = static_cast<long long>(r.size(0));
  kc.maxY64 = static_cast<long long>(r.size(1));
  kc.maxZ64 = static_cast<long long>(r.size(2));
  kc.groupsX = kc.maxX;
  kc.groupsY = kc.maxY;
  kc.groupsZ = kc.maxZ;
  HostDispatch<K, decltype(bound)> d{kernel, bound, r, kc};
  if (!r.hasLocal()) {
    if (!spans.empty())
      throw Error(std::string(dispatch) +
                  ": ferry::localSpan needs work-groups: dispatch with "
                  "ferry::Range(...).local(...)");
    d.runItems();
    return;
  }
  const std::string mismatch = r.localMismatch();
  if (!mismatch.empty())
    throw Error(std::string(dispatch) + ": " + mismatch);
  d.runGroups();
}

// One launch argument, type-erased for the library.
struct LaunchArg {
  const BufferBase *buffer; // null for a scalar
  Access access;
  const void *value;    // a scalar's bytes
  std::size_t size;     // a scalar's size
  std::size_t elements; // a buffer's element count
  std::size_t bound;    // a buffer's bound (see ferry::wo); max: none
  bool declared;        // a buffer passed as ferry::woDeclared
  GridBound grid;       // a buffer passed as wo(b, ferry::grid(…))
  bool beyond = false;  // a buffer passed as ferry::woBeyond
  std::size_t first = 0; // a buffer passed as ferry::woFrom
  // A buffer bound to a reducer parameter (ferry::Sum and friends).
  bool reduction = false;
  // A ferry::localSpan: local memory of localCount elements, localBytes in
  // all (buffer and value are null).
  std::size_t localBytes = 0;
  std::size_t localCount = 0;
};

template <class A> LaunchArg packLaunchArg(A &arg) {
  using D = std::remove_cv_t<A>;
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  if constexpr (IsBufferArg<D>::value) {
    return LaunchArg{&arg.buffer(),       arg.access(),   nullptr,
                     0,                   arg.buffer().size(),
                     arg.bound(),         arg.declared(), arg.grid(),
                     arg.beyond(),        arg.first()};
  } else if constexpr (IsLocalSpanArg<D>::value) {
    LaunchArg a{nullptr, Access::Unused, nullptr, 0,          0,
                none,    false,          GridBound{}};
    a.localCount = arg.count;
    a.localBytes = arg.count * sizeof(typename D::Element);
    return a;
  } else if constexpr (IsBuffer<D>::value) {
    // An unwrapped buffer: assume the kernel reads and writes it.
    return LaunchArg{&arg, Access::RW, nullptr, 0, arg.size(), none, false,
                     GridBound{}};
  } else {
    static_assert(std::is_trivially_copyable<D>::value,
                  "a scalar kernel argument must be trivially copyable");
    static_assert(!std::is_pointer<D>::value,
                  "pass buffers to kernels as ferry::Buffer, not pointers");
    return LaunchArg{nullptr, Access::Unused, &arg,       sizeof(D), 0,
                     none,    false,          GridBound{}};
  }
}

// Elements [first, first + count) of a buffer of `size` elements, clamped
// to it, as [begin, end) (begin == end when nothing is left): a negative
// count is empty, a negative first cuts the range's start off.
template <class F, class C>
std::pair<std::size_t, std::size_t> elementRange(F first, C count,
                                                 std::size_t size) {
  static_assert(std::is_integral<F>::value && std::is_integral<C>::value,
                "a sub-range is given by integers");
  const std::pair<std::size_t, std::size_t> none(0, 0);
  if constexpr (std::is_signed<C>::value)
    if (count <= 0)
      return none;
  unsigned long long n = static_cast<unsigned long long>(count);
  unsigned long long begin = 0;
  if constexpr (std::is_signed<F>::value) {
    if (first < 0) {
      // The magnitude of first, without overflowing at its minimum.
      const unsigned long long skipped =
          0ull - static_cast<unsigned long long>(first);
      if (n <= skipped)
        return none;
      n -= skipped;
    } else {
      begin = static_cast<unsigned long long>(first);
    }
  } else {
    begin = static_cast<unsigned long long>(first);
  }
  if (begin >= size)
    return none;
  const unsigned long long left = size - begin;
  return {static_cast<std::size_t>(begin),
          static_cast<std::size_t>(begin + (n < left ? n : left))};
}

// The OpenCL names of the kernels a compute function template dispatches
// as `k<T>`, one per instantiation (the rewriter writes the table before
// the template): which one a launch runs is known only at run time.
struct KernelName {
  void (*kernel)();
  const char *name;
};
template <class K> void (*kernelKey(K kernel))() {
  return reinterpret_cast<void (*)()>(kernel);
}
template <class K, std::size_t N>
const char *kernelNamed(K kernel, const KernelName (&names)[N]) {
  for (const KernelName &n : names)
    if (n.kernel == kernelKey(kernel))
      return n.name;
  throw Error("ferry: a kernel this compute function template dispatches "
              "is missing from its table of names: rewrite the file again");
}

// A non-owning reference to "run this kernel on the host".
struct HostRun {
  void *object;
  void (*call)(void *);
  void operator()() const { call(object); }
};

} // namespace detail

// ---------------------------------------------------------------------------
// What a compute function receives. Users never construct one.
class ComputeContext {
public:
  ComputeContext(const ComputeContext &) = delete;
  ComputeContext &operator=(const ComputeContext &) = delete;

  // Reference execution: runs kernel(kc, args...) on the host for every
  // work-item of r (x innermost), a Buffer<T> argument binding as T*.
  template <class K, class... A>
  void dispatch(K kernel, const Range &r, A &&...args) {
    const auto t0 = std::chrono::steady_clock::now();
    detail::runOnHost(kernel, r, "a dispatch", args...);
    detail::StatisticsState &st = detail::statisticsState();
    st.counters.kernelMs += detail::millisecondsSince(t0);
    ++st.counters.dispatches;
  }

  // Rewritten programs: runs the kernel `kernelName` of the OpenCL C source
  // `program` (a NUL-terminated string with static storage duration) on the
  // chosen device, or hostKernel on the host when FERRY_DEVICE=host. Buffer
  // arguments arrive as ferry::ro/wo/rw/unused(b), scalars as they are.
  template <class K, class... A>
  void launch(const char *program, const char *kernelName, K hostKernel,
              const Range &r, A &&...args) {
    (void)detail::LibraryRegistration<K>::registered;
    detail::LaunchArg packed[sizeof...(A) + 1] = {detail::packLaunchArg(args)...,
                                                  detail::LaunchArg{}};
    using Reducers = detail::ReducerParams<K, sizeof...(A)>;
    if constexpr (Reducers::any) {
      detail::checkReductions<K>(r, kernelName, args...);
      for (std::size_t i = 0; i < sizeof...(A); ++i)
        packed[i].reduction = Reducers::at(i);
    }
    auto runHost = [&]() {
      detail::runOnHost(hostKernel, r, kernelName, args...);
    };
    const detail::HostRun hostRun{
        &runHost, [](void *f) { (*static_cast<decltype(runHost) *>(f))(); }};
    launchImpl(program, kernelName, r, packed, sizeof...(A), hostRun);
  }

  // Transfers written out by the rewriter (under FERRY_POLICY=planned; the
  // other policies ignore them).
  // Copy the whole buffer host -> device / device -> host, leaving out what
  // this compute's validity knows the source to hold older than the
  // destination (a copy would lose the newer data there).
  void toDevice(const detail::BufferBase &b);
  void fromDevice(const detail::BufferBase &b);
  // Copy exactly the parts stale on the destination (each piece one
  // transfer; the whole buffer as one when all of it is stale).
  void toDeviceIfStale(const detail::BufferBase &b);
  void fromDeviceIfStale(const detail::BufferBase &b);
  void hostWrites(const detail::BufferBase &b); // host is about to write
  // The host is about to write the first n elements (std::copy into it, a
  // loop `for (i = 0; i < n; ++i) b[i] = …`, `b[0] = v`): copies the rest
  // back first when n does not cover the buffer and the host copy is stale.
  // A negative n (a loop that does not run) covers nothing.
  template <class T, class N,
            class = typename std::enable_if<std::is_integral<N>::value>::type>
  void hostWrites(const Buffer<T> &b, N elementsFromStart) {
    const bool covers =
        !negative(elementsFromStart, std::is_signed<N>{}) &&
        static_cast<unsigned long long>(elementsFromStart) >= b.size();
    if (!covers)
      fromDeviceIfStale(b);
    hostWrites(b);
  }

  // Sub-range transfers (extensions), in elements: [first, first + count)
  // of b, clamped to it; an empty range does nothing. toDevice / fromDevice
  // copy it (as toDevice(b) does: not what the source holds older) and mark
  // it valid on the destination; the IfStale forms copy
  // only its pieces that are stale on the destination (each piece one
  // transfer). hostWrites(b, first, count): the host is about to write
  // exactly those elements: no copy; they become valid on the host and
  // stale on the device, the rest keeps its validity (waits, as
  // hostWrites(b) does, for the device's pending use of b).
  template <class T, class F, class C,
            class = typename std::enable_if<std::is_integral<F>::value &&
                                            std::is_integral<C>::value>::type>
  void toDevice(const Buffer<T> &b, F first, C count) {
    const auto r = detail::elementRange(first, count, b.size());
    if (r.first < r.second)
      rangeTransfer(Transfer::ToDevice, b, r.first * sizeof(T),
                    r.second * sizeof(T));
  }
  template <class T, class F, class C,
            class = typename std::enable_if<std::is_integral<F>::value &&
                                            std::is_integral<C>::value>::type>
  void fromDevice(const Buffer<T> &b, F first, C count) {
    const auto r = detail::elementRange(first, count, b.size());
    if (r.first < r.second)
      rangeTransfer(Transfer::FromDevice, b, r.first * sizeof(T),
                    r.second * sizeof(T));
  }
  template <class T, class F, class C,
            class = typename std::enable_if<std::is_integral<F>::value &&
                                            std::is_integral<C>::value>::type>
  void toDeviceIfStale(const Buffer<T> &b, F first, C count) {
    const auto r = detail::elementRange(first, count, b.size());
    if (r.first < r.second)
      rangeTransfer(Transfer::ToDeviceIfStale, b, r.first * sizeof(T),
                    r.second * sizeof(T));
  }
  template <class T, class F, class C,
            class = typename std::enable_if<std::is_integral<F>::value &&
                                            std::is_integral<C>::value>::type>
  void fromDeviceIfStale(const Buffer<T> &b, F first, C count) {
    const auto r = detail::elementRange(first, count, b.size());
    if (r.first < r.second)
      rangeTransfer(Transfer::FromDeviceIfStale, b, r.first * sizeof(T),
                    r.second * sizeof(T));
  }
  template <class T, class F, class C,
            class = typename std::enable_if<std::is_integral<F>::value &&
                                            std::is_integral<C>::value>::type>
  void hostWrites(const Buffer<T> &b, F first, C count) {
    const auto r = detail::elementRange(first, count, b.size());
    if (r.first < r.second)
      rangeTransfer(Transfer::HostWrites, b, r.first * sizeof(T),
                    r.second * sizeof(T));
  }

  // The plan's safety net (extensions), written where a host access, or a
  // buffer a compute leaves on the device, is one Ferry cannot name (a
  // private member of an object in a container, say). fromDeviceAllOf<T...>
  // copies home, from every buffer of element type T (of any type with no
  // T), the pieces its device copy holds newer; hostWritesAllOf<T...> does
  // that and then marks all of each such buffer stale on the device, since
  // the host may be about to write any of them. A naming gap then costs
  // bytes, never a result; FERRY_STATS counts these copies apart
  // (`unnamed_from_device`), so a test can assert a plan needed none.
  template <class... T> void fromDeviceAllOf() {
    if constexpr (sizeof...(T) == 0)
      unnamedAccess(nullptr, Unnamed::AtExit);
    else
      (unnamedAccess(&typeid(T), Unnamed::AtExit), ...);
  }
  template <class... T> void hostWritesAllOf() {
    if constexpr (sizeof...(T) == 0)
      unnamedAccess(nullptr, Unnamed::HostWrites);
    else
      (unnamedAccess(&typeid(T), Unnamed::HostWrites), ...);
  }
  // Before a host read Ferry cannot attribute: as fromDeviceAllOf, the
  // buffers keepOnDevice kept included (the exit's fromDeviceAllOf leaves
  // those on the device, since no code outside a compute reads them).
  template <class... T> void hostReadsAllOf() {
    if constexpr (sizeof...(T) == 0)
      unnamedAccess(nullptr, Unnamed::HostReads);
    else
      (unnamedAccess(&typeid(T), Unnamed::HostReads), ...);
  }

  // Written at a compute function's exits (an extension) for a private
  // member that only compute code names: nothing outside a compute reads or
  // writes it, so its state (per range: where each side is valid) carries
  // into every later compute instead of the device copy counting as stale
  // there, and the exit's fromDeviceAllOf leaves it on the device. Does
  // nothing in the reference execution, on FERRY_DEVICE=host and under the
  // kernel and naive policies.
  void keepOnDevice(const detail::BufferBase &b);

  // Written at a compute function's exits (an extension) for a private
  // member that code outside computes only reads (through const): nothing
  // there can make its device copy stale, so its state carries into every
  // later compute, and a compute after a host read sends nothing again.
  // Unlike keepOnDevice, the exits still bring it home, the planned copies
  // and the safety net alike. Does nothing where keepOnDevice does nothing.
  void keepDeviceCopy(const detail::BufferBase &b);

  // Waits until the device has finished every command enqueued so far in
  // this compute, kernels and copies (an extension), so that a program can
  // time its kernels: `t0 = now(); cc.dispatch(...); cc.finish(); now() -
  // t0`. A command that failed on the device is reported here as a
  // ferry::Error, as at the end of the compute. It moves nothing and changes
  // no plan: the transfers around it are those without it. In the
  // reference execution (and on FERRY_DEVICE=host) every dispatch has
  // finished when it returns, so there is nothing to wait for.
  void finish() {
    if (session_)
      if (auto wait = detail::runtimeHooks().finish)
        wait(*session_);
  }

  // The device this compute's kernels run on (an extension): see
  // ferry::Device.
  Device device() {
    if (auto query = detail::runtimeHooks().device)
      return query(session_);
    return detail::referenceDevice("reference");
  }

private:
  enum class Unnamed { AtExit, HostReads, HostWrites };
  // Of element type *element (any, when null).
  void unnamedAccess(const std::type_info *element, Unnamed what);
  enum class Transfer {
    ToDevice,
    FromDevice,
    ToDeviceIfStale,
    FromDeviceIfStale,
    HostWrites
  };
  // The sub-range calls, in bytes [firstByte, lastByte), not empty.
  void rangeTransfer(Transfer what, const detail::BufferBase &b,
                     std::size_t firstByte, std::size_t lastByte);
  friend class Accelerator;
  // Without comparing an unsigned count with 0 (a warning under -Wextra).
  template <class N> static bool negative(N n, std::true_type) { return n < 0; }
  template <class N> static bool negative(N, std::false_type) { return false; }
  explicit ComputeContext(std::shared_ptr<detail::Session> &session)
      : session_(session) {}

  void launchImpl(const char *program, const char *kernelName, const Range &r,
                  const detail::LaunchArg *args, std::size_t count,
                  detail::HostRun hostRun);

  std::shared_ptr<detail::Session> &session_;
};

// ---------------------------------------------------------------------------
// The entry point: `ferry::Accelerator acc; acc.compute(f);`. A rewritten
// program chooses its device (FERRY_DEVICE) when the Accelerator is built; a
// reference program never chooses one.
class Accelerator {
public:
  Accelerator() {
    detail::statisticsState(); // so that FERRY_STATS is written at exit
    if (auto create = detail::runtimeHooks().createSession)
      session_ = create();
  }

  // Runs f(ComputeContext&) in a new epoch: buffers the host may have
  // changed since the last compute are treated as changed.
  // The device runs asynchronously inside; compute returns when it is done
  // (and throws an error that a command of f reported on the way). An
  // exception leaving f, or a failure reported at the end, first copies
  // home whatever the device holds newer than the host, so that every
  // buffer the host can reach still holds the latest data.
  template <class F> void compute(F &&f) {
    ++detail::currentEpoch();
    ComputeContext cc(session_);
    struct End {
      std::shared_ptr<detail::Session> &session;
      bool done = false;
      void finish(bool report) {
        done = true;
        if (session && detail::runtimeHooks().finishCompute)
          detail::runtimeHooks().finishCompute(*session, report);
      }
      ~End() {
        if (!done)
          finish(false);
      }
    } end{session_};
    std::forward<F>(f)(cc);
    end.finish(true);
  }

  // Written by the rewriter right before a compute (an extension): Ferry
  // proved that the host has not written these buffers since the previous
  // compute returned, so their state as it was then (per range: which parts
  // the device holds valid, and which it holds newer) carries into the very
  // next compute, instead of every device copy counting as stale there. Does
  // nothing in the reference execution, on FERRY_DEVICE=host and under the
  // kernel and naive policies; a buffer never on the device, moved from, or
  // with its device copy in another context has nothing to keep.
  template <class... T> void keepOnDevice(const Buffer<T> &...buffers) {
    if (session_)
      if (auto keep = detail::runtimeHooks().keepOnDevice)
        (keep(*session_, buffers), ...);
  }

  // The device this Accelerator's kernels run on, with the limits a launch
  // shape depends on (an extension): see ferry::Device.
  Device device() {
    if (auto query = detail::runtimeHooks().device)
      return query(session_);
    return detail::referenceDevice("reference");
  }

  // "reference" for the reference execution, "host" for FERRY_DEVICE=host,
  // otherwise the OpenCL device and platform.
  std::string deviceName() const {
    if (session_ && detail::runtimeHooks().deviceName)
      return detail::runtimeHooks().deviceName(*session_);
    return "reference";
  }

private:
  friend class HomeAtScopeEnd;
  std::shared_ptr<detail::Session> session_;
};

// Written by the rewriter as the first line of a block it puts around a
// loop of computes (an extension): Ferry proved that no code of the loop
// but the computes' kernels reads or writes these buffers, so the copies
// home that its computes would make at their exits wait until the block
// ends, and each buffer crosses once, when the object is destroyed: on
// leaving the loop, by a `break` or a `return` inside it, or by an
// exception (then a failed copy is dropped, and the exception goes on).
// Meanwhile their state carries from each compute into the next. Where the
// device itself fails at the end, the destructor throws ferry::Error, as a
// compute would. Does nothing in the reference execution, on
// FERRY_DEVICE=host and under the kernel and naive policies.
// A buffer reached through a pointer the function may be handed null is
// given as a pointer, `m ? &m->u : nullptr`; a null one is left out.
// An object whose members code outside its class may not name (private
// ones, `model.u_`) is given whole, `ferry::buffersIn(model)`: the scope
// then holds every buffer stored inside the object, at any depth, Ferry
// having proved that nothing but kernels uses any of them in the loop.
class HomeAtScopeEnd {
public:
  template <class... B>
  explicit HomeAtScopeEnd(Accelerator &acc, const B &...buffers)
      : exceptions_(std::uncaught_exceptions()) {
    (add(buffers), ...);
    if (auto defer = detail::runtimeHooks().deferHome)
      session_ = defer(acc.session_, buffers_, objects_);
  }
  ~HomeAtScopeEnd() noexcept(false) {
    if (session_)
      detail::runtimeHooks().bringHomeDeferred(
          *session_, buffers_, std::uncaught_exceptions() <= exceptions_);
  }
  HomeAtScopeEnd(const HomeAtScopeEnd &) = delete;
  HomeAtScopeEnd &operator=(const HomeAtScopeEnd &) = delete;

private:
  template <class T> void add(const Buffer<T> &b) { buffers_.push_back(&b); }
  template <class T> void add(const Buffer<T> *b) {
    if (b)
      buffers_.push_back(b);
  }
  void add(detail::ObjectBytes object) {
    if (object.size != 0)
      objects_.push_back(object);
  }

  std::vector<const detail::BufferBase *> buffers_;
  std::vector<detail::ObjectBytes> objects_;
  detail::Session *session_ = nullptr;
  int exceptions_;
};

// The buffers stored inside an object, for a ferry::HomeAtScopeEnd; a null
// pointer holds none.
template <class T> detail::ObjectBytes buffersIn(const T &object) {
  return {std::addressof(object), sizeof(T)};
}
template <class T> detail::ObjectBytes buffersIn(T *object) {
  if (!object)
    return {};
  return {object, sizeof(T)};
}
// A vector's elements lie in one block of their own, not in the vector: its
// buffers are those stored inside them. (The vector must not reallocate
// while the scope holds them; Ferry proves nothing adds or removes one.)
template <class T, class A>
detail::ObjectBytes buffersIn(const std::vector<T, A> &objects) {
  return {objects.data(), objects.size() * sizeof(T)};
}

// Written by the rewriter at the start of a function that runs computes on
// buffers its caller owns (an extension): the caller may have written them
// since its last compute returned, so from here their device copies count as
// stale (the host's are the latest), and a compute of the function may then
// keep them on the device (Accelerator::keepOnDevice). Copies nothing (on
// FERRY_DEVICE=host nothing is ever copied). Does nothing in the reference
// execution and under the kernel and naive policies, and to a buffer whose
// device copy may be newer than the host's (one only compute code uses).
template <class... T> void forgetDeviceCopies(const Buffer<T> &...buffers) {
  if (auto forget = detail::runtimeHooks().forgetDeviceCopy)
    (forget(buffers), ...);
}

// Statistics so far (for tests and tools; FERRY_STATS writes them at exit).
inline Statistics statistics() {
  return detail::statisticsState().snapshot();
}

// Zeroes the counters (not the device or policy).
inline void resetStatistics() {
  Statistics &c = detail::statisticsState().counters;
  c = Statistics{};
}

// Overrides FERRY_POLICY for the rest of the process (tests only).
inline void setPolicyForTesting(Policy p) {
  detail::policyState().resolved = true;
  detail::policyState().policy = p;
}

namespace detail {
// Forgets the policy so that FERRY_POLICY is read again (tests only).
inline void forgetPolicyForTesting() { policyState() = PolicyState{}; }
} // namespace detail

} // namespace ferry
