#pragma once
// The abstract state the planner tracks for every buffer object: is the host
// copy valid, is the device copy valid. Unknown is what a join of paths that
// disagree gives; the run-time state then decides (guarded transfers).

#include "analyses/paths/ObjectTable.h"

#include <vector>

namespace ferry {

enum class Validity : unsigned char { Valid, Stale, Unknown };

inline Validity join(Validity A, Validity B) {
  return A == B ? A : Validity::Unknown;
}

struct CopyState {
  Validity Host = Validity::Valid;
  Validity Device = Validity::Stale;
  bool operator==(const CopyState &O) const {
    return Host == O.Host && Device == O.Device;
  }
};

/// One program point: per object, and the points-to facts there.
struct FlowState {
  bool Reachable = true;
  std::vector<CopyState> Objects;
  PointsTo Facts;

  bool operator==(const FlowState &O) const {
    return Reachable == O.Reachable && Objects == O.Objects &&
           Facts == O.Facts;
  }
  bool operator!=(const FlowState &O) const { return !(*this == O); }

  static FlowState unreachable() {
    FlowState S;
    S.Reachable = false;
    return S;
  }
};

inline FlowState join(const FlowState &A, const FlowState &B) {
  if (!A.Reachable)
    return B;
  if (!B.Reachable)
    return A;
  FlowState R = A;
  for (size_t I = 0; I < R.Objects.size(); ++I) {
    R.Objects[I].Host = join(A.Objects[I].Host, B.Objects[I].Host);
    R.Objects[I].Device = join(A.Objects[I].Device, B.Objects[I].Device);
  }
  joinFacts(R.Facts, B.Facts);
  return R;
}

} // namespace ferry
