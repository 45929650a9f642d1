// Platform and device selection from FERRY_DEVICE.
#include "Internal.hpp"

#include <algorithm>
#include <cctype>
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
  std::string platformName;
  std::string deviceName;
  cl_device_type type = 0;
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
        result.push_back(Candidate{platform, device, platformName,
                                   trimmed(device.getInfo<CL_DEVICE_NAME>()),
                                   device.getInfo<CL_DEVICE_TYPE>()});
    } catch (const cl::Error &e) {
      throwClError(e, "querying OpenCL devices");
    }
  }
  return result;
}

const Candidate *firstOfType(const std::vector<Candidate> &all,
                             cl_device_type type) {
  for (const Candidate &c : all)
    if (c.type & type)
      return &c;
  return nullptr;
}

std::string listing(const std::vector<Candidate> &all) {
  if (all.empty())
    return "no OpenCL platforms or devices are available";
  std::string text = "available OpenCL devices:";
  for (const Candidate &c : all)
    text += "\n  platform '" + c.platformName + "': device '" + c.deviceName +
            "' (" + typeName(c.type) + ")";
  return text;
}

} // namespace

DeviceChoice chooseDevice(const char *request) {
  const std::string wanted = request ? request : "";
  DeviceChoice choice;
  if (lower(wanted) == "host") {
    choice.host = true;
    choice.name = "host";
    return choice;
  }

  const std::vector<Candidate> all = allDevices();
  const Candidate *found = nullptr;
  if (wanted.empty()) {
    found = firstOfType(all, CL_DEVICE_TYPE_GPU);
    if (!found)
      found = firstOfType(all, CL_DEVICE_TYPE_CPU);
    if (!found && !all.empty())
      found = &all.front();
  } else if (lower(wanted) == "gpu") {
    found = firstOfType(all, CL_DEVICE_TYPE_GPU);
  } else if (lower(wanted) == "cpu") {
    found = firstOfType(all, CL_DEVICE_TYPE_CPU);
  } else {
    const std::string needle = lower(wanted);
    for (const Candidate &c : all)
      if (lower(c.platformName).find(needle) != std::string::npos ||
          lower(c.deviceName).find(needle) != std::string::npos) {
        found = &c;
        break;
      }
  }

  if (!found) {
    const std::string what =
        wanted.empty() ? std::string("no OpenCL device found")
                       : "FERRY_DEVICE='" + wanted + "' matches no device";
    throw Error("ferry: " + what + "; " + listing(all) +
                "\n(FERRY_DEVICE accepts host, cpu, gpu, or a substring of a "
                "platform or device name)");
  }
  choice.platform = found->platform;
  choice.device = found->device;
  choice.name = found->deviceName + " (" + found->platformName + ")";
  return choice;
}

} // namespace detail
} // namespace ferry
