// Helpers shared by the runtime tests.
#pragma once

#include <ferry/ferry.hpp>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace ferry_test {

// Sets (or, with null, unsets) an environment variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_.c_str(), old_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  std::string name_;
  std::optional<std::string> old_;
};

// Sets the transfer policy for a scope.
class ScopedPolicy {
public:
  explicit ScopedPolicy(ferry::Policy p) { ferry::setPolicyForTesting(p); }
  ~ScopedPolicy() { ferry::setPolicyForTesting(ferry::Policy::Planned); }
  ScopedPolicy(const ScopedPolicy &) = delete;
  ScopedPolicy &operator=(const ScopedPolicy &) = delete;
};

// Hands b's host storage out, as a program writing it would: from then on a
// copy in is a copy, not a fill of the value b was made with.
template <class T> ferry::Buffer<T> &handedOut(ferry::Buffer<T> &b) {
  (void)b.data();
  return b;
}

// One Accelerator on the OpenCL CPU device (PoCL), shared so that programs
// are built once.
inline ferry::Accelerator &cpuAccelerator() {
  static ferry::Accelerator *acc = [] {
    ScopedEnv device("FERRY_DEVICE", "cpu");
    return new ferry::Accelerator();
  }();
  return *acc;
}

inline std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string tmpPath(const std::string &name) {
  return std::string(FERRY_TEST_TMP_DIR) + "/" + name;
}

// Hand-written OpenCL C used by several tests, with host twins.
inline constexpr char kernelsSource[] = R"CLC(
__kernel void square(__global float *a, int n) {
  int i = get_global_id(0);
  if (i < n) a[i] = a[i] * a[i];
}
__kernel void scale(__global const float *a, __global float *b, float s) {
  int i = get_global_id(0);
  b[i] = a[i] * s;
}
__kernel void increment(__global int *a) {
  int i = get_global_id(0);
  a[i] = a[i] + 1;
}
__kernel void coords(__global int *out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int nx = get_global_size(0), ny = get_global_size(1);
  out[(z * ny + y) * nx + x] = z * 10000 + y * 100 + x;
}
__kernel void fill(__global int *out, int v) {
  out[get_global_id(0)] = v;
}
__kernel void fill_below(__global int *out, int v, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = v;
}
)CLC";

inline void square(ferry::KernelContext kc, float *a, int n) {
  if (kc.x < n)
    a[kc.x] = a[kc.x] * a[kc.x];
}
inline void scale(ferry::KernelContext kc, const float *a, float *b, float s) {
  b[kc.x] = a[kc.x] * s;
}
inline void increment(ferry::KernelContext kc, int *a) { a[kc.x] += 1; }
inline void fill(ferry::KernelContext kc, int *out, int v) { out[kc.x] = v; }
inline void fill_below(ferry::KernelContext kc, int *out, int v, int n) {
  if (kc.x < n)
    out[kc.x] = v;
}
inline void coords(ferry::KernelContext kc, int *out) {
  out[(kc.z * kc.maxY + kc.y) * kc.maxX + kc.x] =
      kc.z * 10000 + kc.y * 100 + kc.x;
}

} // namespace ferry_test
