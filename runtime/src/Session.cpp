// An Accelerator's device state: the chosen device, its context and queue,
// and the cache of built programs and kernels.
#include "Internal.hpp"

#include <cstdlib>
#include <cstring>

namespace ferry {
namespace detail {
namespace {

std::string sessionDeviceName(const Session &s) { return s.name; }

// The end of a compute. Ended by an exception (`report` false, or a
// failure the wait reports), it first copies home whatever the device holds
// newer than the host, so that no buffer keeps stale data on the host
// (secondary failures are dropped: the first exception goes on).
void finishCompute(Session &s, bool report) {
  if (s.host)
    return;
  if (!report) {
    s.collect(true, false);
    bringHome(s);
    return;
  }
  try {
    s.collect(true, true);
  } catch (...) {
    bringHome(s);
    throw;
  }
}

void waitForBufferHook(const BufferBase &b) { waitForBuffer(b); }

// cc.finish(): the wait the end of a compute makes, without its end. The
// commands' device times are accounted for on the way, as at any wait.
void finishHook(Session &s) {
  if (!s.host)
    s.collect(true, true);
}

// acc.device(), cc.device(): the chosen device's limits, asked of OpenCL
// once per query (a handful of clGetDeviceInfo calls; a program asks
// before choosing a launch shape, not per dispatch).
Device deviceHook(std::shared_ptr<Session> &slot) {
  Session &s = sessionFor(slot);
  if (s.host)
    return referenceDevice(s.name.c_str());
  Device d;
  d.name = s.name;
  try {
    d.computeUnits = s.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    d.maxWorkGroupSize = s.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    d.localMemoryBytes =
        static_cast<std::size_t>(s.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
    d.globalMemoryBytes =
        static_cast<std::size_t>(s.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>());
  } catch (const cl::Error &e) {
    throwClError(e, "asking " + s.name + " for its limits");
  }
  return d;
}

void keepOnDeviceHook(Session &s, const BufferBase &b) {
  if (!s.host && followsPlan(activePolicy()))
    BufferAccess::keep(b);
}

// ferry::HomeAtScopeEnd. An object's buffers join its list once: a buffer
// listed twice would never be the last deferral at the end.
Session *deferHomeHook(std::shared_ptr<Session> &slot,
                       std::vector<const BufferBase *> &buffers,
                       const std::vector<ObjectBytes> &objects) {
  Session &s = sessionFor(slot);
  if (s.host || !followsPlan(activePolicy()))
    return nullptr;
  const std::uint64_t from = currentEpoch() + 1;
  // (One buffer given twice, `run(acc, x, x)` reaching `HomeAtScopeEnd(acc,
  // a, b)`, is held once.)
  for (std::size_t i = buffers.size(); i-- > 1;)
    if (std::find(buffers.begin(), buffers.begin() + i, buffers[i]) !=
        buffers.begin() + i)
      buffers.erase(buffers.begin() + i);
  if (!objects.empty()) {
    for (const BufferBase *b : buffersOnDevice())
      if (std::any_of(objects.begin(), objects.end(),
                      [&](const ObjectBytes &o) { return o.holds(b); }) &&
          std::find(buffers.begin(), buffers.end(), b) == buffers.end())
        buffers.push_back(b);
    s.scopesOverObjects.push_back({&buffers, &objects, from});
  }
  for (const BufferBase *b : buffers)
    BufferAccess::deferHome(*b, from);
  return &s;
}

// The scope's end: each buffer no other scope holds comes home where the
// device holds it newer (each copy home waits for itself). A failed copy
// is reported after the others are tried, as at a compute's end; while an
// exception is on its way, it is dropped.
void bringHomeDeferredHook(Session &s, std::vector<const BufferBase *> &buffers,
                           bool report) {
  auto &open = s.scopesOverObjects;
  open.erase(std::remove_if(open.begin(), open.end(),
                            [&](const Session::ScopeOverObjects &scope) {
                              return scope.buffers == &buffers;
                            }),
             open.end());
  // (Copied while the scope still holds them: their state is the scope's.)
  std::exception_ptr failed;
  for (const BufferBase *b : buffers) {
    // (A member only compute code names stays on the device, as at an
    // exit.)
    if (!BufferAccess::lastDeferral(*b) || BufferAccess::keptAlways(*b))
      continue;
    const std::shared_ptr<DeviceShadow> &shadow = BufferAccess::shadow(*b);
    if (b->hostValid() || !shadow || shadow->context() != s.context())
      continue;
    try {
      waitForBuffer(*b);
      BufferAccess::touch(*b);
      copyStaleFromDevice(s, *b, 0, b->byteSize());
    } catch (...) {
      if (!failed)
        failed = std::current_exception();
    }
  }
  for (const BufferBase *b : buffers)
    BufferAccess::endDeferral(*b);
  if (failed && report)
    std::rethrow_exception(failed);
}

void forgetDeviceCopyHook(const BufferBase &b) {
  if (followsPlan(activePolicy()))
    BufferAccess::forget(b);
}

// "ferry: kernel 'name' on <device> failed: CL_OUT_OF_RESOURCES (-5)".
std::string commandFailure(const PendingCommand &c, cl_int status,
                           const std::string &device) {
  std::string what;
  switch (c.kind) {
  case CommandKind::Kernel:
    what = std::string("kernel '") + c.name + "' on " + device;
    break;
  case CommandKind::ToDevice:
    what = "copying " + std::to_string(c.bytes) + " bytes to " + device;
    break;
  case CommandKind::FromDevice:
    what = "copying " + std::to_string(c.bytes) + " bytes from " + device;
    break;
  }
  return "ferry: " + what + " failed: " + clErrorName(status) + " (" +
         std::to_string(status) + ")";
}

} // namespace

void Session::track(cl::Event event, CommandKind kind,
                    const char *commandName, std::uint64_t bytes, bool mapped,
                    std::chrono::steady_clock::time_point enqueued) {
  pending.push_back(
      PendingCommand{std::move(event), kind, commandName, bytes, mapped,
                     enqueued});
  // A long run of dispatches without a wait: account for what has finished,
  // so that the list (and the driver's events) stay small.
  if (pending.size() >= 4096)
    collect(false);
}

std::string UnwaitedKernels::describe() const {
  if (runs_.size() == 1 && runs_[0].second == 1)
    return std::string("kernel '") + runs_[0].first + "'";
  std::string list;
  for (const auto &[name, times] : runs_) {
    if (!list.empty())
      list += ", ";
    list += std::string("'") + name + "'";
    if (times > 1)
      list += " x" + std::to_string(times);
  }
  if (more_)
    list += ", " + std::to_string(more_) + " more";
  return "one of the kernels enqueued since the last wait (" + list +
         "; FERRY_EVENTS=1 names it)";
}

void Session::collect(bool wait, bool report) {
  cl_int finished = CL_SUCCESS;
  if (wait) {
    try {
      queue.finish();
    } catch (const cl::Error &e) {
      // A failed command: found and named below.
      finished = e.err();
    }
  }
  std::string failure;
  std::size_t done = 0;
  for (; done < pending.size(); ++done) {
    PendingCommand &c = pending[done];
    cl_int status = CL_COMPLETE;
    try {
      status = c.event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
    } catch (const cl::Error &e) {
      status = e.err();
    }
    if (status > 0 && !wait)
      break; // still running: later commands are too (in-order queue)
    if (status < 0) {
      if (failure.empty())
        failure = commandFailure(c, status, name);
      continue;
    }
    double ms = 0;
    std::chrono::steady_clock::time_point start = c.enqueued;
    if (profiling) {
      try {
        const cl_ulong begin =
            c.event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
        const cl_ulong end = c.event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        ms = end > begin ? (end - begin) / 1e6 : 0.0;
        if (tracing()) {
          const cl_ulong queued =
              c.event.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>();
          if (begin > queued)
            start += std::chrono::nanoseconds(begin - queued);
        }
      } catch (const cl::Error &) {
        // No profiling information: the command counts, its time does not.
      }
    }
    if (c.kind == CommandKind::Kernel)
      recordKernelTime(ms);
    else
      recordTransferTime(ms);
    if (tracing())
      traceEvent(c.name, c.kind == CommandKind::Kernel ? "kernel" : "transfer",
                 start, ms, c.bytes, c.kind != CommandKind::Kernel);
  }
  pending.erase(pending.begin(), pending.begin() + done);
  if (wait) {
    // Kernels without events fail only as the wait itself failing.
    if (finished != CL_SUCCESS && failure.empty() && !unwaited.empty())
      failure = "ferry: " + unwaited.describe() + " on " + name +
                " failed: " + clErrorName(finished) + " (" +
                std::to_string(finished) + ")";
    unwaited.clear();
  }
  if (!failure.empty() && report)
    throw Error(failure);
}

std::shared_ptr<Session> createSession() {
  activePolicy(); // reject a bad FERRY_POLICY before anything runs
  DeviceChoice choice = chooseDevice(std::getenv("FERRY_DEVICE"));
  auto session = std::make_shared<Session>();
  session->host = choice.host;
  session->name = choice.name;
  if (!choice.host) {
    session->shared = contextFor(choice);
    session->device = choice.device;
    session->context = session->shared->context;
    session->unified = session->shared->unified;
    session->profiling = profilingWanted();
    try {
      session->queue = cl::CommandQueue(
          session->context, choice.device,
          session->profiling ? CL_QUEUE_PROFILING_ENABLE : 0);
    } catch (const cl::Error &e) {
      throwClError(e, "creating the OpenCL queue for " + choice.name);
    }
  }
  statisticsState().device = session->name;
  statisticsState().unifiedMemory = session->unified;
  traceStart(); // FERRY_TRACE is written even if nothing runs
  return session;
}

Session &sessionFor(std::shared_ptr<Session> &slot) {
  if (!slot)
    slot = createSession();
  return *slot;
}

bool registerLibrary() {
  RuntimeHooks &hooks = runtimeHooks();
  hooks.createSession = &createSession;
  hooks.deviceName = &sessionDeviceName;
  hooks.waitForBuffer = &waitForBufferHook;
  hooks.finishCompute = &finishCompute;
  hooks.keepOnDevice = &keepOnDeviceHook;
  hooks.forgetDeviceCopy = &forgetDeviceCopyHook;
  hooks.finish = &finishHook;
  hooks.device = &deviceHook;
  hooks.deferHome = &deferHomeHook;
  hooks.bringHomeDeferred = &bringHomeDeferredHook;
  registerHostStorage(hooks);
  return true;
}

// The device's build log of a failed build.
static std::string buildLog(const cl::Error &e, cl::Program &program,
                            const cl::Device &device) {
  std::string log;
  if (const auto *build = dynamic_cast<const cl::BuildError *>(&e))
    for (const auto &entry : build->getBuildLog())
      log += entry.second;
  if (log.find_first_not_of(" \t\r\n") == std::string::npos) {
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error &) {
    }
  }
  if (log.find_first_not_of(" \t\r\n") == std::string::npos)
    log = "(the device gave no build log)";
  return log;
}

namespace {

// The program of `key` from the binary cache, built for `device`; false on
// a miss or an unusable binary (then the caller builds from source).
bool loadCachedProgram(const cl::Context &context, const cl::Device &device,
                       const std::string &directory, const std::string &key,
                       cl::Program &program) {
  std::vector<unsigned char> binary = loadProgramBinary(directory, key);
  if (binary.empty())
    return false;
  try {
    std::vector<cl_int> status;
    cl::Program loaded(context, std::vector<cl::Device>{device},
                       cl::Program::Binaries{binary}, &status);
    loaded.build(std::vector<cl::Device>{device},
                 programBuildOptions().c_str());
    program = loaded;
    return true;
  } catch (const cl::Error &e) {
    verboseOnce("cache-bad:" + programCacheFile(directory, key),
                "ignoring the cached program " +
                    programCacheFile(directory, key) + " (" +
                    describeClError(e) + ")");
    return false;
  }
}

void storeCachedProgram(const cl::Program &program,
                        const std::string &directory, const std::string &key) {
  try {
    const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.size() == 1 &&
        storeProgramBinary(directory, key, binaries.front()))
      return;
  } catch (const cl::Error &) {
  }
  verboseOnce("cache-store:" + directory,
              "cannot store built programs in " + directory);
}

} // namespace

// Programs are built once per Accelerator (its session) and kept, keyed by
// their source's address: the rewriter emits each translation unit's
// kernels as one static string. A build from source is stored in the binary
// cache, and a later run (or Accelerator) on the same device and driver
// loads the binary instead (program_cache_hits, not program_builds).
KernelEntry &Session::kernel(const char *source, const char *kernelName) {
  if (lastKernel && source == lastSource &&
      std::strcmp(kernelName, lastKernel->first.c_str()) == 0)
    return *lastKernel;
  auto found = programs.find(source);
  if (found == programs.end()) {
    const std::string what = std::string("the OpenCL program of kernel '") +
                             kernelName + "' for " + name;
    ProgramEntry entry;
    const std::string text(source);
    const std::string directory = programCacheDirectory();
    const std::string key =
        directory.empty() ? std::string() : programCacheKey(device, text);
    const auto t0 = std::chrono::steady_clock::now();
    if (!key.empty() &&
        loadCachedProgram(context, device, directory, key, entry.program)) {
      recordProgramCacheHit();
      traceEvent(std::string("load ") + kernelName, "build", t0,
                 millisecondsSince(t0), 0, false);
    } else {
      try {
        entry.program = cl::Program(context, text);
      } catch (const cl::Error &e) {
        throwClError(e, "creating " + what);
      }
      try {
        entry.program.build(std::vector<cl::Device>{device},
                            programBuildOptions().c_str());
      } catch (const cl::Error &e) {
        throw Error(describeClError(e, "building " + what) +
                    "\nbuild log:\n" + buildLog(e, entry.program, device));
      }
      const double ms = millisecondsSince(t0);
      recordProgramBuild();
      traceEvent(std::string("build ") + kernelName, "build", t0, ms, 0,
                 false);
      if (!key.empty())
        storeCachedProgram(entry.program, directory, key);
    }
    found = programs.emplace(source, std::move(entry)).first;
  }
  ProgramEntry &entry = found->second;
  auto k = entry.kernels.find(kernelName);
  if (k == entry.kernels.end()) {
    try {
      k = entry.kernels
              .emplace(kernelName, cl::Kernel(entry.program, kernelName))
              .first;
    } catch (const cl::Error &e) {
      throwClError(e, std::string("kernel '") + kernelName + "'");
    }
  }
  lastSource = source;
  lastKernel = &*k;
  return *k;
}

} // namespace detail
} // namespace ferry
