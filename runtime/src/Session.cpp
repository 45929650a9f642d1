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

cl::Kernel &Session::kernel(const char *source, const char *kernelName) {
  auto found = programs.find(source);
  if (found == programs.end()) {
    ProgramEntry entry;
    try {
      entry.program = cl::Program(context, std::string(source));
    } catch (const cl::Error &e) {
      throwClError(e, std::string("creating the program of kernel '") +
                          kernelName + "'");
    }
    try {
      entry.program.build(std::vector<cl::Device>{device});
    } catch (const cl::Error &e) {
      std::string log;
      try {
        log = entry.program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
      } catch (const cl::Error &) {
        log = "(no build log)";
      }
      throw Error("ferry: building the OpenCL program of kernel '" +
                  std::string(kernelName) + "' for " + name + " failed: " +
                  clErrorName(e.err()) + " (" + std::to_string(e.err()) +
                  ")\nbuild log:\n" + log);
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
  return k->second;
}

} // namespace detail
} // namespace ferry
