// The program binary cache: OpenCL programs built once are stored on disk,
// keyed by the device, its driver and the source, so that a later run loads
// the binary instead of building the OpenCL C again.
//
// One file per key, "<hash>.bin": a header line, the full key (so a hash
// collision or a truncated file is a miss, never a wrong program), then the
// binary. Written to a temporary file in the same directory and renamed, so
// concurrent processes see either no file or a whole one.
#include "Internal.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace ferry {
namespace detail {
namespace {

const char Magic[] = "ferry-program-binary 1\n";

std::uint64_t fnv1a(const std::string &text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// mkdir -p; true when the directory exists afterwards.
bool makeDirectories(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0)
    return S_ISDIR(st.st_mode);
  const std::size_t slash = path.find_last_of('/');
  if (slash != std::string::npos && slash > 0)
    makeDirectories(path.substr(0, slash));
  return mkdir(path.c_str(), 0755) == 0 ||
         (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode));
}

} // namespace

std::string programCacheDirectory() {
  const char *cache = std::getenv("FERRY_CACHE");
  if (settingOff("FERRY_CACHE"))
    return "";
  if (const char *dir = std::getenv("FERRY_CACHE_DIR"); dir && *dir)
    return dir;
  // FERRY_CACHE=<a path> names the directory too.
  if (cache && *cache && cache[0] == '/')
    return cache;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/ferry";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/ferry";
  return "";
}

const std::string &programBuildOptions() {
  // Fast math trades IEEE results (denormals, NaN and infinity handling,
  // the last bits of divisions and square roots) for speed; only the user
  // can say a program may have it. miniBUDE's fast-math build is the mark.
  // `finite` grants what costs no accuracy a finite program can see (fused
  // multiply-adds, no signed zeros, no NaN or infinity) and keeps IEEE
  // divisions, square roots and denormals: on an H200 the unsafe
  // optimisations (their flushed denormals) made miniBUDE's kernel 10 to
  // 34 % slower, and `finite` alone is as fast as IEEE math or faster
  // (docs/targets.md).
  static const std::string options = [] {
    const char *v = std::getenv("FERRY_FAST_MATH");
    const std::string value = v ? v : "";
    if (value == "1")
      return std::string("-cl-fast-relaxed-math");
    if (value == "finite")
      return std::string(
          "-cl-mad-enable -cl-no-signed-zeros -cl-finite-math-only");
    if (value.empty() || settingOff("FERRY_FAST_MATH"))
      return std::string();
    throw Error("FERRY_FAST_MATH: unknown value '" + value +
                "' (accepted values: 1, finite, 0)");
  }();
  return options;
}

std::string programCacheKey(const cl::Device &device,
                            const std::string &source) {
  std::string key;
  try {
    const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
    key += "platform=" + platform.getInfo<CL_PLATFORM_NAME>() + "|" +
           platform.getInfo<CL_PLATFORM_VERSION>() + "\n";
    key += "device=" + device.getInfo<CL_DEVICE_NAME>() + "|" +
           device.getInfo<CL_DEVICE_VERSION>() + "\n";
    key += "driver=" + device.getInfo<CL_DRIVER_VERSION>() + "\n";
  } catch (const cl::Error &) {
    return ""; // no key: no caching
  }
  for (char &c : key)
    if (c == '\0')
      c = ' ';
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a(source)));
  key += "source=" + std::string(hash) + " " +
         std::to_string(source.size()) + "\n";
  // The same source built with other options is another binary.
  if (!programBuildOptions().empty())
    key += "options=" + programBuildOptions() + "\n";
  return key;
}

std::string programCacheFile(const std::string &directory,
                             const std::string &key) {
  char name[40];
  std::snprintf(name, sizeof name, "%016llx.bin",
                static_cast<unsigned long long>(fnv1a(key)));
  return directory + "/" + name;
}

std::vector<unsigned char> loadProgramBinary(const std::string &directory,
                                             const std::string &key) {
  std::ifstream in(programCacheFile(directory, key), std::ios::binary);
  if (!in)
    return {};
  std::string data((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const std::string head = std::string(Magic) +
                           std::to_string(key.size()) + "\n" + key;
  if (data.size() < head.size() + 8 || data.compare(0, head.size(), head) != 0)
    return {};
  std::uint64_t size = 0;
  std::memcpy(&size, data.data() + head.size(), 8);
  if (size == 0 || size != data.size() - head.size() - 8)
    return {};
  return std::vector<unsigned char>(data.begin() + head.size() + 8,
                                    data.end());
}

bool storeProgramBinary(const std::string &directory, const std::string &key,
                        const std::vector<unsigned char> &binary) {
  if (binary.empty() || !makeDirectories(directory))
    return false;
  const std::string target = programCacheFile(directory, key);
  const std::string temp = target + ".tmp." + std::to_string(getpid()) + "." +
                           std::to_string(reinterpret_cast<std::uintptr_t>(
                               &binary));
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out)
      return false;
    const std::uint64_t size = binary.size();
    out << Magic << key.size() << "\n" << key;
    out.write(reinterpret_cast<const char *>(&size), 8);
    out.write(reinterpret_cast<const char *>(binary.data()),
              static_cast<std::streamsize>(binary.size()));
    out.close();
    if (!out) {
      std::remove(temp.c_str());
      return false;
    }
  }
  if (std::rename(temp.c_str(), target.c_str()) != 0) {
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

} // namespace detail
} // namespace ferry
