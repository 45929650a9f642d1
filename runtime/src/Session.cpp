// An Accelerator's device state: the chosen device, its context and queue,
// and the cache of built programs and kernels.
#include "Internal.hpp"

#include <cstdlib>

namespace ferry {
namespace detail {
namespace {

std::string sessionDeviceName(const Session &s) { return s.name; }

} // namespace

std::shared_ptr<Session> createSession() {
  activePolicy(); // reject a bad FERRY_POLICY before anything runs
  DeviceChoice choice = chooseDevice(std::getenv("FERRY_DEVICE"));
  auto session = std::make_shared<Session>();
  session->host = choice.host;
  session->name = choice.name;
  if (!choice.host) {
    try {
      session->device = choice.device;
      session->context = cl::Context(choice.device);
      session->queue = cl::CommandQueue(session->context, choice.device, 0);
    } catch (const cl::Error &e) {
      throwClError(e, "creating the OpenCL context for " + choice.name);
    }
  }
  statisticsState().device = session->name;
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

// Programs are built once per context (an Accelerator's session) and kept,
// keyed by their source's address: the rewriter emits each translation
// unit's kernels as one static string.
cl::Kernel &Session::kernel(const char *source, const char *kernelName) {
  auto found = programs.find(source);
  if (found == programs.end()) {
    const std::string what = std::string("the OpenCL program of kernel '") +
                             kernelName + "' for " + name;
    ProgramEntry entry;
    try {
      entry.program = cl::Program(context, std::string(source));
    } catch (const cl::Error &e) {
      throwClError(e, "creating " + what);
    }
    const auto t0 = std::chrono::steady_clock::now();
    try {
      entry.program.build(std::vector<cl::Device>{device});
    } catch (const cl::Error &e) {
      throw Error(describeClError(e, "building " + what) + "\nbuild log:\n" +
                  buildLog(e, entry.program, device));
    }
    const double ms = millisecondsSince(t0);
    recordProgramBuild();
    traceEvent(std::string("build ") + kernelName, "build", t0, ms, 0, false);
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
  return k->second;
}

} // namespace detail
} // namespace ferry
