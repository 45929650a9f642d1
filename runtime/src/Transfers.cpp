// Host <-> device copies and the validity bookkeeping behind the five
// transfer calls that the rewriter writes out.
#include "Internal.hpp"

namespace ferry {
namespace detail {

cl::Buffer &deviceBuffer(Session &s, const BufferBase &b) {
  std::shared_ptr<DeviceShadow> &shadow = BufferAccess::shadow(b);
  if (!shadow || shadow->context() != s.context()) {
    // First use on a device, or a buffer last used by another Accelerator:
    // whatever that device held is not here.
    auto fresh = std::make_shared<DeviceShadow>();
    fresh->context = s.context;
    const std::size_t bytes = b.byteSize() ? b.byteSize() : 1;
    try {
      fresh->buffer = cl::Buffer(s.context, CL_MEM_READ_WRITE, bytes);
    } catch (const cl::Error &e) {
      throwClError(e, "allocating " + std::to_string(bytes) +
                          " bytes on " + s.name);
    }
    shadow = std::move(fresh);
    BufferAccess::deviceValid(b) = false;
  }
  return shadow->buffer;
}

void copyToDevice(Session &s, const BufferBase &b) {
  cl::Buffer &buffer = deviceBuffer(s, b);
  const std::size_t bytes = b.byteSize();
  if (bytes > 0) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      s.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, b.hostPointer());
    } catch (const cl::Error &e) {
      throwClError(e, "copying " + std::to_string(bytes) + " bytes to " +
                          s.name);
    }
    const double ms = millisecondsSince(t0);
    recordToDevice(bytes, ms);
    traceEvent("toDevice", "transfer", t0, ms, bytes, true);
  }
  BufferAccess::deviceValid(b) = true;
}

void copyFromDevice(Session &s, const BufferBase &b) {
  cl::Buffer &buffer = deviceBuffer(s, b);
  const std::size_t bytes = b.byteSize();
  if (bytes > 0) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      s.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, b.hostPointer());
    } catch (const cl::Error &e) {
      throwClError(e, "copying " + std::to_string(bytes) + " bytes from " +
                          s.name);
    }
    const double ms = millisecondsSince(t0);
    recordFromDevice(bytes, ms);
    traceEvent("fromDevice", "transfer", t0, ms, bytes, true);
  }
  BufferAccess::hostValid(b) = true;
}

namespace {

// The session when the written-out transfers apply: an OpenCL device under
// the planned policy. Null otherwise (host device, kernel or naive policy).
Session *plannedDevice(std::shared_ptr<Session> &slot) {
  Session &s = sessionFor(slot);
  if (s.host || activePolicy() != Policy::Planned)
    return nullptr;
  return &s;
}

} // namespace
} // namespace detail

void ComputeContext::toDevice(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    detail::BufferAccess::touch(b);
    detail::copyToDevice(*s, b);
  }
}

void ComputeContext::fromDevice(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    detail::BufferAccess::touch(b);
    detail::copyFromDevice(*s, b);
  }
}

void ComputeContext::toDeviceIfStale(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    detail::BufferAccess::touch(b);
    detail::deviceBuffer(*s, b); // a shadow of another context is stale
    if (!b.deviceValid())
      detail::copyToDevice(*s, b);
  }
}

void ComputeContext::fromDeviceIfStale(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    detail::BufferAccess::touch(b);
    detail::deviceBuffer(*s, b);
    if (!b.hostValid())
      detail::copyFromDevice(*s, b);
  }
}

void ComputeContext::hostWrites(const detail::BufferBase &b) {
  if (detail::plannedDevice(session_)) {
    detail::BufferAccess::touch(b);
    detail::BufferAccess::deviceValid(b) = false;
    detail::BufferAccess::hostValid(b) = true;
  }
}

} // namespace ferry
