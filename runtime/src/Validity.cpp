// Which bytes of a buffer are valid on the host and on the device: the
// transitions that transfers and launches make, per range. A whole-buffer
// transition only sets the two flags of BufferBase (and drops any ranges),
// so the common case costs what it cost before ranges existed; the interval
// sets are allocated only while a side is valid in part
// (docs/validity-ranges.md).
#include "Internal.hpp"

namespace ferry {
namespace detail {

void BufferAccess::startEpoch(const BufferBase &b) {
  if (b.keptInto_ == currentEpoch() || b.computeOnly_ || b.hostReadsOnly_ ||
      b.carriedByScope()) {
    b.epoch_ = currentEpoch(); // keepOnDevice: the state carries over
    return;
  }
  b.epoch_ = currentEpoch();
  b.hostValid_ = true;
  b.deviceValid_ = false;
  b.partial_.reset();
  b.leaveDeviceNewer();
}

PartialValidity &BufferAccess::partial(const BufferBase &b) {
  if (!b.partial_) {
    b.partial_.reset(new PartialValidity);
    if (!b.hostValid_)
      b.partial_->hostStale.add(0, b.bytes_);
    if (!b.deviceValid_)
      b.partial_->deviceStale.add(0, b.bytes_);
  }
  return *b.partial_;
}

// After a change to the ranges: the flags follow them, and the ranges go
// when each side is valid or stale as a whole again.
void BufferAccess::settle(const BufferBase &b) {
  if (b.partial_) {
    const RangeSet &host = b.partial_->hostStale;
    const RangeSet &device = b.partial_->deviceStale;
    b.hostValid_ = host.empty();
    b.deviceValid_ = device.empty();
    if ((host.empty() && (device.empty() || device.covers(0, b.bytes_))) ||
        (device.empty() && host.covers(0, b.bytes_)))
      b.partial_.reset();
  }
  if (b.hostValid_)
    b.leaveDeviceNewer();
  else
    b.joinDeviceNewer();
}

void BufferAccess::copiedToDevice(const BufferBase &b, std::size_t first,
                                  std::size_t last) {
  if (first == 0 && last >= b.bytes_) {
    b.deviceValid_ = true;
    if (b.partial_) {
      b.partial_->deviceStale.clear();
      settle(b);
    }
    return;
  }
  if (first >= last || (!b.partial_ && b.deviceValid_))
    return;
  partial(b).deviceStale.remove(first, last);
  settle(b);
}

void BufferAccess::copiedToHost(const BufferBase &b, std::size_t first,
                                std::size_t last) {
  if (first == 0 && last >= b.bytes_) {
    b.hostValid_ = true;
    if (b.partial_) {
      b.partial_->hostStale.clear();
      settle(b);
    } else {
      b.leaveDeviceNewer();
    }
    return;
  }
  if (first >= last || (!b.partial_ && b.hostValid_))
    return;
  partial(b).hostStale.remove(first, last);
  settle(b);
}

void BufferAccess::writtenOnHost(const BufferBase &b, std::size_t first,
                                 std::size_t last) {
  if (first == 0 && last >= b.bytes_) {
    b.hostValid_ = true;
    b.deviceValid_ = false;
    b.partial_.reset();
    b.leaveDeviceNewer();
    return;
  }
  if (first >= last || (!b.partial_ && b.hostValid_ && !b.deviceValid_))
    return;
  PartialValidity &p = partial(b);
  p.hostStale.remove(first, last);
  p.deviceStale.add(first, last);
  settle(b);
}

void BufferAccess::writtenOnDevice(const BufferBase &b, std::size_t first,
                                   std::size_t last) {
  if (first == 0 && last >= b.bytes_) {
    b.hostValid_ = false;
    b.deviceValid_ = true;
    if (b.partial_)
      b.partial_.reset();
    b.joinDeviceNewer();
    return;
  }
  if (first >= last || (!b.partial_ && !b.hostValid_ && b.deviceValid_))
    return;
  PartialValidity &p = partial(b);
  p.deviceStale.remove(first, last);
  p.hostStale.add(first, last);
  settle(b);
}

void BufferAccess::stalePieces(const BufferBase &b, Side side,
                               std::size_t first, std::size_t last,
                               std::vector<Piece> &out) {
  out.clear();
  const bool whole = side == Side::Host ? b.hostValid_ : b.deviceValid_;
  if (whole || first > last)
    return;
  if (!b.partial_) {
    out.push_back(Piece{first, last});
    return;
  }
  const RangeSet &stale =
      side == Side::Host ? b.partial_->hostStale : b.partial_->deviceStale;
  stale.forEachWithin(first, last, [&](std::size_t from, std::size_t to) {
    out.push_back(Piece{from, to});
  });
}

void BufferAccess::validPieces(const BufferBase &b, Side side,
                               std::size_t first, std::size_t last,
                               std::vector<Piece> &out) {
  out.clear();
  const bool whole = side == Side::Host ? b.hostValid_ : b.deviceValid_;
  if (first > last)
    return;
  if (whole) {
    out.push_back(Piece{first, last});
    return;
  }
  if (!b.partial_)
    return; // all of it stale
  const RangeSet &stale =
      side == Side::Host ? b.partial_->hostStale : b.partial_->deviceStale;
  std::size_t at = first;
  stale.forEachWithin(first, last, [&](std::size_t from, std::size_t to) {
    if (at < from)
      out.push_back(Piece{at, from});
    at = to;
  });
  if (at < last)
    out.push_back(Piece{at, last});
}

} // namespace detail
} // namespace ferry
