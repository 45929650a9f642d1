// Library-side recording into the process-wide statistics (the statistics
// themselves, and their writer, live in ferry.hpp so that the reference
// execution has them too).
#include "Internal.hpp"

namespace ferry {
namespace detail {

void recordToDevice(std::uint64_t bytes, double ms) {
  Statistics &c = statisticsState().counters;
  ++c.toDeviceCount;
  c.toDeviceBytes += bytes;
  c.transferMs += ms;
}

void recordFromDevice(std::uint64_t bytes, double ms) {
  Statistics &c = statisticsState().counters;
  ++c.fromDeviceCount;
  c.fromDeviceBytes += bytes;
  c.transferMs += ms;
}

void recordProgramBuild() { ++statisticsState().counters.programBuilds; }

void recordDispatch(double ms) {
  Statistics &c = statisticsState().counters;
  ++c.dispatches;
  c.kernelMs += ms;
}

} // namespace detail
} // namespace ferry
