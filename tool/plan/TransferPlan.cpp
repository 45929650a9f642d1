#include "plan/TransferPlan.h"

namespace ferry {

const char *runtimeCallName(TransferKind K) {
  switch (K) {
  case TransferKind::ToDevice:
    return "toDevice";
  case TransferKind::FromDevice:
    return "fromDevice";
  case TransferKind::ToDeviceIfStale:
    return "toDeviceIfStale";
  case TransferKind::FromDeviceIfStale:
    return "fromDeviceIfStale";
  case TransferKind::HostWrites:
  case TransferKind::HostWritesFirst:
    return "hostWrites";
  case TransferKind::FromDeviceAllOf:
    return "fromDeviceAllOf";
  case TransferKind::HostWritesAllOf:
    return "hostWritesAllOf";
  case TransferKind::HostReadsAllOf:
    return "hostReadsAllOf";
  case TransferKind::KeepOnDevice:
    return "keepOnDevice";
  case TransferKind::KeepDeviceCopy:
    return "keepDeviceCopy";
  }
  return "?";
}

unsigned FunctionPlan::staticCopies() const {
  unsigned N = 0;
  for (const Transfer &T : Transfers)
    N += isCopy(T.Kind) && !isGuarded(T.Kind);
  return N;
}

unsigned FunctionPlan::guardedCopies() const {
  unsigned N = 0;
  for (const Transfer &T : Transfers)
    N += isGuarded(T.Kind);
  return N;
}

} // namespace ferry
