// A ferry::Error that nothing catches: one line on standard error,
// "ferry: <message>", and exit status 1.
//
// Without this, such an error ends the program through std::terminate's
// default handler: "terminate called after throwing an instance of
// 'ferry::Error'" and an abort (status 134), which reads as a crash although
// the program only met a setting it cannot use (FERRY_DEVICE=foo) or a device
// that failed. Programs that want to handle the error themselves still catch
// it as usual; a handler they install with std::set_terminate replaces this
// one. Any other exception goes on to the handler that was there before, and
// so still aborts as C++ says.
//
// The program exits through std::exit, so static destructors run: a program
// run with FERRY_STATS or FERRY_TRACE still writes them, counting what was
// done before the error.
#include <ferry/ferry.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace ferry {
namespace {

std::terminate_handler previousHandler = nullptr;

[[noreturn]] void reportUncaughtError() {
  // Set on the first call: if exiting makes something call std::terminate
  // again (a destructor that throws), leave without running exit again.
  static bool reporting = false;
  if (std::exception_ptr inFlight = std::current_exception()) {
    try {
      std::rethrow_exception(inFlight);
    } catch (const Error &error) {
      if (reporting)
        std::_Exit(1);
      reporting = true;
      const char *message = error.what();
      // Some of the runtime's messages already name Ferry.
      const char *prefix =
          std::strncmp(message, "ferry: ", 7) == 0 ? "" : "ferry: ";
      std::fprintf(stderr, "%s%s\n", prefix, message);
      std::fflush(stderr);
      std::exit(1);
    } catch (...) {
    }
  }
  if (previousHandler)
    previousHandler();
  std::abort();
}

} // namespace
} // namespace ferry

// Installed while the program starts. Nothing in a program refers to this
// file, so runtime/CMakeLists.txt makes every program that links
// ferry::runtime ask for this symbol (-Wl,--undefined): otherwise the linker
// would leave the file out of the static library's link.
extern "C" const bool ferry_error_reporting_installed =
    (ferry::previousHandler =
         std::set_terminate(ferry::reportUncaughtError),
     true);
