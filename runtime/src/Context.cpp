// The OpenCL context of each device, shared by every Accelerator on it, and
// the pinned host storage of buffers (allocated in that context at first
// need, so that a buffer made before any Accelerator is pinned too).
#include "Internal.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <unordered_set>

namespace ferry {
namespace detail {

bool settingOff(const char *name) {
  const char *v = std::getenv(name);
  if (!v)
    return false;
  const std::string s(v);
  return s == "0" || s == "off" || s == "no" || s == "false";
}

bool verbose() {
  const char *v = std::getenv("FERRY_VERBOSE");
  return v && *v && !settingOff("FERRY_VERBOSE");
}

bool profilingWanted() {
  const char *profile = std::getenv("FERRY_PROFILE");
  if (profile && *profile)
    return !settingOff("FERRY_PROFILE");
  const char *stats = std::getenv("FERRY_STATS");
  const char *trace = std::getenv("FERRY_TRACE");
  return (stats && *stats) || (trace && *trace);
}

void verboseOnce(const std::string &key, const std::string &message) {
  static std::set<std::string> said;
  if (!verbose() || !said.insert(key).second)
    return;
  std::fprintf(stderr, "ferry: %s\n", message.c_str());
  std::fflush(stderr);
}

namespace {

std::mutex &contextsMutex() {
  static std::mutex m;
  return m;
}
// Every shared context, by device. Held here and by each user (sessions,
// pinned storage), so a buffer outliving its Accelerator keeps its context.
std::map<cl_device_id, std::shared_ptr<DeviceContext>> &contexts() {
  static auto *all =
      new std::map<cl_device_id, std::shared_ptr<DeviceContext>>();
  return *all; // never destroyed: buffers may be freed during exit
}

} // namespace

std::shared_ptr<DeviceContext> contextFor(const DeviceChoice &choice) {
  std::lock_guard<std::mutex> lock(contextsMutex());
  auto &all = contexts();
  auto found = all.find(choice.device());
  if (found != all.end())
    return found->second;
  auto shared = std::make_shared<DeviceContext>();
  shared->device = choice.device;
  shared->name = choice.name;
  try {
    shared->context = cl::Context(choice.device);
    shared->mapQueue = cl::CommandQueue(shared->context, choice.device, 0);
    const cl_bool unified =
        choice.device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>();
    shared->unified = unified == CL_TRUE && !settingOff("FERRY_UNIFIED");
    const cl_uint bits = choice.device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
    if (bits >= 8)
      shared->alignment = bits / 8;
  } catch (const cl::Error &e) {
    throwClError(e, "creating the OpenCL context for " + choice.name);
  }
  if (shared->unified)
    verboseOnce("unified", choice.name +
                               " shares host memory: transfers of pinned "
                               "buffers are maps, not copies");
  all.emplace(choice.device(), shared);
  return shared;
}

namespace {

// The pointers of every live pinned storage (deviceBuffer uses only these in
// place: plain memory is never shared with the device, whatever its
// alignment, so what happens does not depend on where malloc put a buffer).
std::unordered_set<const void *> &pinnedPointers() {
  static auto *all = new std::unordered_set<const void *>();
  return *all;
}

// Pinned host storage: a CL_MEM_ALLOC_HOST_PTR buffer, mapped for as long as
// the storage lives.
struct PinnedStorage {
  std::shared_ptr<DeviceContext> owner;
  cl::Buffer buffer;
  void *pointer = nullptr;
};

// Buffers smaller than this stay in plain memory (FERRY_PINNED_MIN, bytes;
// set: that, for every device). By default a device with memory of its own
// pins every buffer: a read of a few bytes into plain memory costs NVIDIA's
// driver tens of microseconds more than into pinned memory (BabelStream's
// Dot, 528 partial sums read home each run: 0.83x its original with them in
// plain memory, 1.08x pinned; docs/targets.md), while pinning costs one
// driver call when the buffer is made (5000 small pinned buffers:
// runtime.pinned). A device sharing host memory (PoCL) copies nothing
// either way, and keeps small buffers in plain memory, copied, as before.
std::size_t pinnedMinimum(const DeviceContext &owner) {
  const char *v = std::getenv("FERRY_PINNED_MIN");
  if (v && *v) {
    char *end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (end && *end == '\0')
      return static_cast<std::size_t>(n);
  }
  return owner.unified ? 64 * 1024 : 0;
}

// The shared context that pinned storage goes to: the device FERRY_DEVICE
// names now (the one an Accelerator will choose), or null for the host
// device, FERRY_PINNED=0 or any failure (then buffers use plain memory).
std::shared_ptr<DeviceContext> pinningContext() {
  static std::string lastRequest = "\x01"; // nothing asked yet
  static std::shared_ptr<DeviceContext> last;
  const char *env = std::getenv("FERRY_DEVICE");
  const std::string request = env ? env : "";
  if (request == lastRequest)
    return last;
  lastRequest = request;
  last.reset();
  if (request == "host")
    return last;
  try {
    DeviceChoice choice = chooseDevice(env);
    if (!choice.host)
      last = contextFor(choice);
  } catch (const std::exception &e) {
    verboseOnce("pinned-device", std::string("buffers use plain memory: ") +
                                     e.what());
  }
  return last;
}

void *allocateHost(std::size_t bytes, void **cookie) {
  *cookie = nullptr;
  if (settingOff("FERRY_PINNED")) {
    verboseOnce("pinned-off", "FERRY_PINNED=0: buffers use plain memory");
    return nullptr;
  }
  std::shared_ptr<DeviceContext> owner = pinningContext();
  if (!owner || bytes < pinnedMinimum(*owner))
    return nullptr;
  auto storage = new PinnedStorage{owner, cl::Buffer(), nullptr};
  try {
    // FERRY_PINNED=fail: pretend the driver refused (tests the fallback).
    const char *mode = std::getenv("FERRY_PINNED");
    if (mode && std::strcmp(mode, "fail") == 0)
      throw cl::Error(CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer");
    storage->buffer =
        cl::Buffer(owner->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                   bytes);
    storage->pointer = owner->mapQueue.enqueueMapBuffer(
        storage->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
  } catch (const cl::Error &e) {
    delete storage;
    verboseOnce("pinned-failed",
                "pinned allocation of " + std::to_string(bytes) +
                    " bytes failed (" + describeClError(e) +
                    "); buffers use plain memory where it fails");
    return nullptr;
  }
  recordPinned(bytes);
  pinnedPointers().insert(storage->pointer);
  *cookie = storage;
  return storage->pointer;
}

void freeHost(void *cookie) {
  auto *storage = static_cast<PinnedStorage *>(cookie);
  pinnedPointers().erase(storage->pointer);
  try {
    cl::Event done;
    storage->owner->mapQueue.enqueueUnmapMemObject(storage->buffer,
                                                   storage->pointer, nullptr,
                                                   &done);
    done.wait();
  } catch (const cl::Error &) {
    // Freed anyway with the buffer below.
  }
  delete storage;
}

} // namespace

bool isPinnedStorage(const void *host, const DeviceContext &context) {
  if (!pinnedPointers().count(host))
    return false;
  return reinterpret_cast<std::uintptr_t>(host) % context.alignment == 0;
}

void registerHostStorage(RuntimeHooks &hooks) {
  hooks.allocateHost = &allocateHost;
  hooks.freeHost = &freeHost;
}

} // namespace detail
} // namespace ferry
