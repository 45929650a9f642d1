// Library-side recording into the process-wide statistics (the statistics
// themselves, and their writer, live in ferry.hpp so that the reference
// execution has them too).
#include "Internal.hpp"

namespace ferry {
namespace detail {

void recordToDevice(std::uint64_t bytes, double ms, bool partial) {
  Statistics &c = statisticsState().counters;
  ++c.toDeviceCount;
  c.toDeviceBytes += bytes;
  c.transferMs += ms;
  if (partial) {
    ++c.partialToDeviceCount;
    c.partialToDeviceBytes += bytes;
  }
}

void recordFromDevice(std::uint64_t bytes, double ms, bool partial) {
  Statistics &c = statisticsState().counters;
  ++c.fromDeviceCount;
  c.fromDeviceBytes += bytes;
  c.transferMs += ms;
  if (partial) {
    ++c.partialFromDeviceCount;
    c.partialFromDeviceBytes += bytes;
  }
}

void recordProgramBuild() { ++statisticsState().counters.programBuilds; }

void recordProgramCacheHit() {
  ++statisticsState().counters.programCacheHits;
}

void recordMap(std::uint64_t bytes) {
  Statistics &c = statisticsState().counters;
  ++c.mapCount;
  c.mapBytes += bytes;
}

void recordFill(std::uint64_t bytes) {
  Statistics &c = statisticsState().counters;
  ++c.fillCount;
  c.fillBytes += bytes;
}

void recordPinned(std::uint64_t bytes) {
  Statistics &c = statisticsState().counters;
  ++c.pinnedBuffers;
  c.pinnedBytes += bytes;
}

void recordKernelTime(double ms) { statisticsState().counters.kernelMs += ms; }

void recordTransferTime(double ms) {
  statisticsState().counters.transferMs += ms;
}

void recordDispatch(double ms) {
  Statistics &c = statisticsState().counters;
  ++c.dispatches;
  c.kernelMs += ms;
}

} // namespace detail
} // namespace ferry
