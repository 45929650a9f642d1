#pragma once
// The access lattice shared by the kernel and host analyses.

namespace ferry {

/// What code does to a buffer's elements: a bit set, joined with `|`.
enum class Access : unsigned { None = 0, Read = 1, Write = 2, ReadWrite = 3 };

inline Access operator|(Access A, Access B) {
  return static_cast<Access>(static_cast<unsigned>(A) |
                             static_cast<unsigned>(B));
}
inline Access &operator|=(Access &A, Access B) { return A = A | B; }
inline bool reads(Access A) { return static_cast<unsigned>(A) & 1u; }
inline bool writes(Access A) { return static_cast<unsigned>(A) & 2u; }

inline const char *accessName(Access A) {
  switch (A) {
  case Access::None:
    return "none";
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "read-write";
  }
  return "?";
}

/// What code does to one buffer, as far as the lifetime analyses could
/// follow it (analyses/lifetime/LeftOnDeviceInLoops.h).
struct KernelUse {
  /// Nothing but kernels touches the buffer: it is handed to dispatches
  /// (and asked its size), directly or through calls Ferry can read, and
  /// never read, written, copied or pointed to by host code.
  bool OnlyKernels = true;
  /// A kernel it is handed to may write it.
  bool Written = false;
};

} // namespace ferry
