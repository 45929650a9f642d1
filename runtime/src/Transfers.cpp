// Host <-> device copies behind the transfer calls that the rewriter writes
// out, whole and per range (the validity they leave: Validity.cpp).
#include "Internal.hpp"

namespace ferry {
namespace detail {

// A buffer stored inside an object that an open ferry::HomeAtScopeEnd holds
// whole joins that scope when it gets its device copy.
static void joinScopesOverObjects(Session &s, const BufferBase &b) {
  for (Session::ScopeOverObjects &scope : s.scopesOverObjects)
    if (std::any_of(scope.objects->begin(), scope.objects->end(),
                    [&](const ObjectBytes &o) { return o.holds(&b); }) &&
        std::find(scope.buffers->begin(), scope.buffers->end(), &b) ==
            scope.buffers->end()) {
      scope.buffers->push_back(&b);
      BufferAccess::deferHome(b, scope.from);
    }
}

cl::Buffer &deviceBuffer(Session &s, const BufferBase &b) {
  std::shared_ptr<DeviceShadow> &shadow = BufferAccess::shadow(b);
  if (!shadow || shadow->context() != s.context()) {
    // First use on a device, or a buffer last used in another context:
    // whatever that device held is not here.
    if (shadow)
      waitForBuffer(b);
    auto fresh = std::make_shared<DeviceShadow>();
    fresh->context = s.context;
    const std::size_t bytes = b.byteSize() ? b.byteSize() : 1;
    // On a device that shares host memory, pinned storage is used in place
    // (no copies; transfers become maps). Plain storage is always copied.
    void *host = b.hostPointer();
    const bool inPlace = s.unified && b.byteSize() > 0 && host &&
                         isPinnedStorage(host, *s.shared);
    try {
      if (inPlace) {
        try {
          fresh->buffer = cl::Buffer(
              s.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host);
          fresh->zeroCopy = true;
        } catch (const cl::Error &e) {
          verboseOnce("in-place", "cannot use host memory in place on " +
                                      s.name + " (" + describeClError(e) +
                                      "); copying instead");
        }
      }
      if (!fresh->zeroCopy)
        fresh->buffer = cl::Buffer(s.context, CL_MEM_READ_WRITE, bytes);
    } catch (const cl::Error &e) {
      throwClError(e, "allocating " + std::to_string(bytes) +
                          " bytes on " + s.name);
    }
    shadow = std::move(fresh);
    BufferAccess::joinOnDevice(b);
    BufferAccess::deviceLost(b);
    if (!s.scopesOverObjects.empty())
      joinScopesOverObjects(s, b);
  }
  return shadow->buffer;
}

void waitForBuffer(const BufferBase &b) {
  std::shared_ptr<DeviceShadow> &shadow = BufferAccess::shadow(b);
  if (shadow && shadow->last()) {
    try {
      shadow->last.wait();
    } catch (const cl::Error &) {
      // The failed command is reported by the next wait of its session.
    }
    shadow->last = cl::Event();
  }
  if (shadow && shadow->pendingKernels()) {
    try {
      shadow->pendingKernels.finish();
    } catch (const cl::Error &) {
      // Reported by the next wait of its session, as above.
    }
    shadow->pendingKernels = cl::CommandQueue();
  }
}

// Host -> device. From pinned or plain storage the copy is enqueued without
// waiting when `async`; the host must not write the buffer until it is done,
// which the planned policy guarantees: the host writes a buffer whose device
// copy is valid only after cc.hostWrites(b), which waits for it (see
// docs/reference.md, "The runtime's speed").
void copyToDevice(Session &s, const BufferBase &b, std::size_t first,
                  std::size_t last, bool async) {
  cl::Buffer &buffer = deviceBuffer(s, b);
  DeviceShadow &shadow = *BufferAccess::shadow(b);
  const std::size_t bytes = last > first ? last - first : 0;
  if (bytes > 0) {
    const auto t0 = std::chrono::steady_clock::now();
    cl::Event event;
    bool filled = false;
    try {
      if (b.pristine() && first % b.fillPatternSize() == 0 &&
          bytes % b.fillPatternSize() == 0) {
        // The host holds one value, repeated: the device writes it itself.
        // Where it uses the host storage in place, that holds it already.
        if (!shadow.zeroCopy) {
          cl_event raw = nullptr;
          cl_int err = clEnqueueFillBuffer(s.queue(), buffer(),
                                           b.fillPattern(), b.fillPatternSize(),
                                           first, bytes, 0, nullptr, &raw);
          if (err != CL_SUCCESS)
            throw cl::Error(err, "clEnqueueFillBuffer");
          event = cl::Event(raw);
        }
        filled = true;
      } else if (shadow.zeroCopy) {
        // The device reads the host storage itself: mapping it for writing
        // (without reading back) and unmapping hands it to the device.
        void *p = s.queue.enqueueMapBuffer(buffer, CL_FALSE,
                                           CL_MAP_WRITE_INVALIDATE_REGION,
                                           first, bytes);
        s.queue.enqueueUnmapMemObject(buffer, p, nullptr, &event);
      } else {
        s.queue.enqueueWriteBuffer(
            buffer, async ? CL_FALSE : CL_TRUE, first, bytes,
            static_cast<const unsigned char *>(b.hostPointer()) + first,
            nullptr, &event);
      }
    } catch (const cl::Error &e) {
      throwClError(e, "copying " + std::to_string(bytes) + " bytes to " +
                          s.name);
    }
    // A fill is still the copy in the policy asked for (to_device), done
    // without crossing the bus (fills), as a map is (maps).
    recordToDevice(bytes, 0.0, bytes < b.byteSize());
    if (filled)
      recordFill(bytes);
    if (shadow.zeroCopy && !filled)
      recordMap(bytes);
    if (event()) {
      shadow.last = event;
      s.track(std::move(event), CommandKind::ToDevice,
              filled ? "fill" : "toDevice", filled ? 0 : bytes,
              shadow.zeroCopy && !filled, t0);
      if (!async)
        s.collect(false);
    }
  }
  BufferAccess::copiedToDevice(b, first, last);
}

void copyToDevice(Session &s, const BufferBase &b, bool async) {
  copyToDevice(s, b, 0, b.byteSize(), async);
}

// Device -> host: enqueues every piece, waits once (for them and everything
// before them), then accounts for the finished commands, reporting one that
// failed.
void copyFromDevice(Session &s, const BufferBase &b, const Piece *pieces,
                    std::size_t count) {
  cl::Buffer &buffer = deviceBuffer(s, b);
  DeviceShadow &shadow = *BufferAccess::shadow(b);
  bool enqueued = false;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t first = pieces[i].first;
    const std::size_t bytes =
        pieces[i].last > first ? pieces[i].last - first : 0;
    if (bytes == 0)
      continue;
    const auto t0 = std::chrono::steady_clock::now();
    cl::Event event;
    try {
      if (shadow.zeroCopy) {
        void *p = s.queue.enqueueMapBuffer(buffer, CL_FALSE, CL_MAP_READ,
                                           first, bytes);
        s.queue.enqueueUnmapMemObject(buffer, p, nullptr, &event);
      } else {
        s.queue.enqueueReadBuffer(
            buffer, CL_FALSE, first, bytes,
            static_cast<unsigned char *>(b.hostPointer()) + first, nullptr,
            &event);
      }
    } catch (const cl::Error &e) {
      throwClError(e, "copying " + std::to_string(bytes) + " bytes from " +
                          s.name);
    }
    recordFromDevice(bytes, 0.0, bytes < b.byteSize());
    if (shadow.zeroCopy)
      recordMap(bytes);
    s.track(std::move(event), CommandKind::FromDevice, "fromDevice", bytes,
            shadow.zeroCopy, t0);
    enqueued = true;
  }
  if (enqueued) {
    BufferAccess::handedOut(b);
    shadow.last = cl::Event();
    s.collect(true);
  }
  for (std::size_t i = 0; i < count; ++i)
    BufferAccess::copiedToHost(b, pieces[i].first, pieces[i].last);
}

void copyFromDevice(Session &s, const BufferBase &b) {
  const Piece whole{0, b.byteSize()};
  copyFromDevice(s, b, &whole, 1);
}

void copyValidToDevice(Session &s, const BufferBase &b, std::size_t first,
                       std::size_t last) {
  deviceBuffer(s, b);
  static thread_local std::vector<Piece> pieces;
  BufferAccess::validPieces(b, Side::Host, first, last, pieces);
  for (const Piece &p : pieces)
    copyToDevice(s, b, p.first, p.last, true);
}

void copyValidFromDevice(Session &s, const BufferBase &b, std::size_t first,
                         std::size_t last) {
  deviceBuffer(s, b);
  static thread_local std::vector<Piece> pieces;
  BufferAccess::validPieces(b, Side::Device, first, last, pieces);
  if (!pieces.empty())
    copyFromDevice(s, b, pieces.data(), pieces.size());
}

// Exactly the stale pieces, each its own transfer: bridging pieces a few
// bytes apart into one (the bytes between valid on both sides) would save
// microseconds of PCIe latency but move bytes no policy needs, and a plan
// must never move more than copying around each dispatch would
// (docs/validity-ranges.md).
void copyStaleToDevice(Session &s, const BufferBase &b, std::size_t first,
                       std::size_t last) {
  deviceBuffer(s, b); // a shadow of another context is stale
  static thread_local std::vector<Piece> pieces;
  BufferAccess::stalePieces(b, Side::Device, first, last, pieces);
  for (const Piece &p : pieces)
    copyToDevice(s, b, p.first, p.last, true);
}

void copyHostValidToDevice(Session &s, const BufferBase &b, std::size_t first,
                           std::size_t last) {
  deviceBuffer(s, b);
  static thread_local std::vector<Piece> pieces;
  BufferAccess::validPieces(b, Side::Host, first, last, pieces);
  for (const Piece &p : pieces)
    copyToDevice(s, b, p.first, p.last, true);
}

void copyStaleFromDevice(Session &s, const BufferBase &b, std::size_t first,
                         std::size_t last) {
  deviceBuffer(s, b);
  static thread_local std::vector<Piece> pieces;
  BufferAccess::stalePieces(b, Side::Host, first, last, pieces);
  if (!pieces.empty())
    copyFromDevice(s, b, pieces.data(), pieces.size());
}

void bringHome(Session &s) noexcept {
  // A copy: each copy home takes its buffer off the list.
  std::vector<const BufferBase *> newer;
  try {
    newer = deviceNewerBuffers();
  } catch (...) {
    return;
  }
  for (const BufferBase *b : newer) {
    // Listed in an older epoch: the host's copy counts as the latest (the
    // host may have written it since), unless kept into this one.
    if (b->hostValid())
      continue;
    const std::shared_ptr<DeviceShadow> &shadow = BufferAccess::shadow(*b);
    if (!shadow || shadow->context() != s.context())
      continue;
    try {
      waitForBuffer(*b); // a command of another queue on it
      BufferAccess::touch(*b);
      copyStaleFromDevice(s, *b, 0, b->byteSize());
    } catch (...) {
      // The exception on its way says what went wrong first; the host
      // keeps what it has of this buffer.
    }
  }
}

namespace {

// The session when the written-out transfers apply: an OpenCL device under
// the planned policy (or whole, its whole-buffer twin). Null otherwise (host
// device, kernel or naive policy).
Session *plannedDevice(std::shared_ptr<Session> &slot) {
  Session &s = sessionFor(slot);
  if (s.host || !followsPlan(activePolicy()))
    return nullptr;
  return &s;
}

} // namespace
} // namespace detail

// The plan knows the destination's copy is stale. From the device, once
// this compute's own bookkeeping covers the buffer, exactly its stale pieces
// go, as for the guarded form (a kernel that wrote part of it leaves only
// that part stale on the host: the rest would move bytes the host already
// has, or lose newer ones). To the device, every piece the host holds valid
// goes, but none the device holds newer: the host may have written any of
// them without this compute's bookkeeping knowing, in code the plan does not
// see (a compute function's caller that runs a helper through a function
// pointer, a destructor, a virtual call between two computes: the plan
// writes the plain form exactly where it cannot know). Before the buffer's
// first use in a compute, whatever it holds counts as the latest, and all of
// it goes.
void ComputeContext::toDevice(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    const bool known = detail::BufferAccess::live(b);
    detail::BufferAccess::touch(b);
    if (known)
      detail::copyHostValidToDevice(*s, b, 0, b.byteSize());
    else
      detail::copyToDevice(*s, b, true);
  }
}

// A buffer a ferry::HomeAtScopeEnd holds comes home at the scope's end,
// not here: Ferry proved that nothing but kernels uses it until then.
void ComputeContext::fromDevice(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    if (detail::BufferAccess::homeDeferred(b))
      return;
    const bool known = detail::BufferAccess::live(b);
    detail::BufferAccess::touch(b);
    if (known)
      detail::copyStaleFromDevice(*s, b, 0, b.byteSize());
    else
      detail::copyFromDevice(*s, b);
  }
}

// Exactly the stale pieces: the whole buffer when all of it is stale, as
// before ranges existed.
void ComputeContext::toDeviceIfStale(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    detail::BufferAccess::touch(b);
    detail::copyStaleToDevice(*s, b, 0, b.byteSize());
  }
}

void ComputeContext::fromDeviceIfStale(const detail::BufferBase &b) {
  if (detail::Session *s = detail::plannedDevice(session_)) {
    if (detail::BufferAccess::homeDeferred(b))
      return;
    detail::BufferAccess::touch(b);
    detail::copyStaleFromDevice(*s, b, 0, b.byteSize());
  }
}

void ComputeContext::hostWrites(const detail::BufferBase &b) {
  // The device may still be reading the host storage (a copy in, or the
  // storage itself on a unified-memory device), under any policy: wait
  // before the host writes.
  detail::waitForBuffer(b);
  if (detail::plannedDevice(session_)) {
    detail::BufferAccess::touch(b);
    detail::BufferAccess::writtenOnHost(b, 0, b.byteSize());
  }
}

void ComputeContext::rangeTransfer(Transfer what, const detail::BufferBase &b,
                                   std::size_t first, std::size_t last) {
  using namespace detail;
  if (what == Transfer::HostWrites)
    waitForBuffer(b); // as hostWrites(b), under any policy
  Session *s = plannedDevice(session_);
  if (!s || ((what == Transfer::FromDevice ||
              what == Transfer::FromDeviceIfStale) &&
             BufferAccess::homeDeferred(b)))
    return;
  const bool known = BufferAccess::live(b); // as in toDevice(b)
  BufferAccess::touch(b);
  // FERRY_POLICY=whole: the same line, for all of the buffer; a host write
  // of part of it needs the rest current on the host first.
  if (activePolicy() == Policy::Whole) {
    first = 0;
    last = b.byteSize();
    if (what == Transfer::HostWrites)
      copyStaleFromDevice(*s, b, 0, last);
  }
  switch (what) {
  case Transfer::ToDevice:
    if (known)
      copyHostValidToDevice(*s, b, first, last);
    else
      copyToDevice(*s, b, first, last, true);
    break;
  case Transfer::FromDevice:
    if (known) {
      copyStaleFromDevice(*s, b, first, last);
    } else {
      const Piece piece{first, last};
      copyFromDevice(*s, b, &piece, 1);
    }
    break;
  case Transfer::ToDeviceIfStale:
    copyStaleToDevice(*s, b, first, last);
    break;
  case Transfer::FromDeviceIfStale:
    copyStaleFromDevice(*s, b, first, last);
    break;
  case Transfer::HostWrites:
    BufferAccess::writtenOnHost(b, first, last);
    break;
  }
}

void ComputeContext::keepOnDevice(const detail::BufferBase &b) {
  if (detail::plannedDevice(session_))
    detail::BufferAccess::keepAlways(b);
}

void ComputeContext::keepDeviceCopy(const detail::BufferBase &b) {
  if (detail::plannedDevice(session_))
    detail::BufferAccess::keepValidAlways(b);
}

// The safety net: what the plan cannot name, the run-time state can. Every
// buffer of the element type that the device holds newer somewhere comes
// home (only those pieces; at an exit, not those only compute code uses);
// for a write, every one with a device copy live in this compute then
// counts as stale there, as after hostWrites(b).

void ComputeContext::unnamedAccess(const std::type_info *element,
                                   Unnamed what) {
  const bool writes = what == Unnamed::HostWrites;
  using namespace detail;
  auto ofType = [element](const BufferBase &b) {
    return !element || b.elementType() == *element;
  };
  if (writes) // as hostWrites(b), under any policy
    for (const BufferBase *b : std::vector<const BufferBase *>(
             buffersOnDevice()))
      if (ofType(*b))
        waitForBuffer(*b);
  Session *s = plannedDevice(session_);
  if (!s)
    return;
  auto inThisContext = [s](const BufferBase &b) {
    const std::shared_ptr<DeviceShadow> &shadow = BufferAccess::shadow(b);
    return shadow && shadow->context() == s->context();
  };
  Statistics &counters = statisticsState().counters;
  const std::uint64_t count = counters.fromDeviceCount;
  const std::uint64_t bytes = counters.fromDeviceBytes;
  // Copies: a copy home takes its buffer off deviceNewerBuffers.
  for (const BufferBase *b :
       std::vector<const BufferBase *>(deviceNewerBuffers()))
    if (ofType(*b) && !b->hostValid() && inThisContext(*b) &&
        !(what == Unnamed::AtExit && (BufferAccess::keptAlways(*b) ||
                                      BufferAccess::homeDeferred(*b)))) {
      BufferAccess::touch(*b);
      copyStaleFromDevice(*s, *b, 0, b->byteSize());
    }
  counters.unnamedFromDeviceCount += counters.fromDeviceCount - count;
  counters.unnamedFromDeviceBytes += counters.fromDeviceBytes - bytes;
  if (!writes)
    return;
  for (const BufferBase *b : buffersOnDevice())
    if (ofType(*b) && BufferAccess::live(*b) && inThisContext(*b))
      BufferAccess::writtenOnHost(*b, 0, b->byteSize());
}

} // namespace ferry
