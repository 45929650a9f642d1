// Platform and device selection from FERRY_DEVICE.
#include "Internal.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <vector>

namespace ferry {
namespace detail {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
    return static_cast<char>(std::tolower(c));
  });
  return s;
}

// Device and platform names, without the trailing NULs and blanks some
// drivers leave in them.
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(
                                                static_cast<unsigned char>(s.back()))))
    s.pop_back();
  return s;
}

struct Candidate {
  cl::Platform platform;
  cl::Device device;
  DeviceInfo info;
};

std::string typeName(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_CPU)
    return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  return "other";
}

std::vector<Candidate> allDevices() {
  std::vector<Candidate> result;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error &e) {
    // No ICD at all reads as CL_PLATFORM_NOT_FOUND_KHR: no devices.
    if (e.err() != -1001 /* CL_PLATFORM_NOT_FOUND_KHR */)
      throwClError(e, "listing OpenCL platforms");
    return result;
  }
  for (cl::Platform &platform : platforms) {
    std::vector<cl::Device> devices;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error &e) {
      if (e.err() == CL_DEVICE_NOT_FOUND)
        continue;
      throwClError(e, "listing OpenCL devices");
    }
    try {
      const std::string platformName =
          trimmed(platform.getInfo<CL_PLATFORM_NAME>());
      for (cl::Device &device : devices)
        result.push_back(Candidate{
            platform, device,
            DeviceInfo{platformName, trimmed(device.getInfo<CL_DEVICE_NAME>()),
                       device.getInfo<CL_DEVICE_TYPE>()}});
    } catch (const cl::Error &e) {
      throwClError(e, "querying OpenCL devices");
    }
  }
  return result;
}

std::ptrdiff_t firstOfType(const std::vector<DeviceInfo> &all,
                           cl_device_type type) {
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].type & type)
      return static_cast<std::ptrdiff_t>(i);
  return -1;
}

// The (n mod count)-th device of `type`, or -1 when there is none.
std::ptrdiff_t nthOfType(const std::vector<DeviceInfo> &all,
                         cl_device_type type, std::size_t n) {
  std::vector<std::size_t> ofType;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].type & type)
      ofType.push_back(i);
  if (ofType.empty())
    return -1;
  return static_cast<std::ptrdiff_t>(ofType[n % ofType.size()]);
}

} // namespace

std::size_t localRank() {
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                           "SLURM_LOCALID", "PMI_LOCAL_RANK"}) {
    const char *value = std::getenv(name);
    if (!value || !*value)
      continue;
    char *end = nullptr;
    errno = 0;
    const unsigned long long rank = std::strtoull(value, &end, 10);
    if (*end == '\0' && errno == 0 && value[0] != '-')
      return static_cast<std::size_t>(rank);
  }
  return 0;
}

std::ptrdiff_t pickDevice(const std::vector<DeviceInfo> &all,
                          const std::string &request) {
  const std::string wanted = lower(request);
  if (wanted.empty()) {
    const std::ptrdiff_t gpu = firstOfType(all, CL_DEVICE_TYPE_GPU);
    return gpu >= 0 ? gpu : firstOfType(all, CL_DEVICE_TYPE_CPU);
  }
  if (wanted == "gpu")
    return firstOfType(all, CL_DEVICE_TYPE_GPU);
  if (wanted == "cpu")
    return firstOfType(all, CL_DEVICE_TYPE_CPU);
  // One device per process of an MPI job on a node (an extension).
  if (wanted == "gpu:local-rank")
    return nthOfType(all, CL_DEVICE_TYPE_GPU, localRank());
  if (wanted == "cpu:local-rank")
    return nthOfType(all, CL_DEVICE_TYPE_CPU, localRank());
  for (std::size_t i = 0; i < all.size(); ++i)
    if (lower(all[i].platform).find(wanted) != std::string::npos ||
        lower(all[i].device).find(wanted) != std::string::npos)
      return static_cast<std::ptrdiff_t>(i);
  return -1;
}

std::string noDeviceMessage(const std::vector<DeviceInfo> &all,
                            const std::string &request) {
  std::string text =
      request.empty()
          ? std::string("ferry: FERRY_DEVICE is unset and there is no OpenCL "
                        "GPU or CPU device")
          : "ferry: FERRY_DEVICE='" + request + "' matches no device";
  if (all.empty()) {
    text += "; no OpenCL platforms or devices are available";
  } else {
    text += "; available OpenCL devices:";
    for (const DeviceInfo &d : all)
      text += "\n  platform '" + d.platform + "': device '" + d.device +
              "' (" + typeName(d.type) + ")";
  }
  text += "\n(FERRY_DEVICE accepts host, cpu, gpu, gpu:local-rank, "
          "cpu:local-rank, or a substring of a platform or device name; "
          "unset, it picks the first GPU, else the first CPU)";
  return text;
}

DeviceChoice chooseDevice(const char *request) {
  const std::string wanted = request ? request : "";
  DeviceChoice choice;
  if (lower(wanted) == "host") {
    choice.host = true;
    choice.name = "host";
    return choice;
  }

  const std::vector<Candidate> candidates = allDevices();
  std::vector<DeviceInfo> all;
  for (const Candidate &c : candidates)
    all.push_back(c.info);
  const std::ptrdiff_t index = pickDevice(all, wanted);
  if (index < 0)
    throw Error(noDeviceMessage(all, wanted));
  const Candidate &found = candidates[static_cast<std::size_t>(index)];
  choice.platform = found.platform;
  choice.device = found.device;
  choice.name = found.info.device + " (" + found.info.platform + ")";
  return choice;
}

} // namespace detail
} // namespace ferry
