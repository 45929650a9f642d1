#pragma once
// The planner's output: plain data the rewriter prints and tests inspect.

#include "analyses/BufferObjects.h"
#include "analyses/KernelAccess.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace ferry {

enum class TransferKind {
  ToDevice,          ///< copy host -> device, always
  FromDevice,        ///< copy device -> host, always
  ToDeviceIfStale,   ///< copy host -> device when the run-time state says so
  FromDeviceIfStale, ///< copy device -> host when the run-time state says so
  HostWrites,        ///< no copy: tell the run-time state the device copy is stale
  /// The host writes the first `Count` elements: copy device -> host first
  /// only when that is not all of the buffer and the host copy is stale;
  /// then as HostWrites.
  HostWritesFirst,
};

const char *runtimeCallName(TransferKind K);
inline bool isGuarded(TransferKind K) {
  return K == TransferKind::ToDeviceIfStale ||
         K == TransferKind::FromDeviceIfStale ||
         K == TransferKind::HostWritesFirst;
}
inline bool isCopy(TransferKind K) { return K != TransferKind::HostWrites; }

/// Where an inserted line goes.
enum class Placement {
  BeforeStmt,   ///< its own line before `Anchor` (braces added if needed)
  EndOfBlock,   ///< last line of the compound statement `Anchor`
  InCondition,  ///< comma-expression around the loop condition `Anchor`
};

struct Transfer {
  TransferKind Kind;
  Placement Where = Placement::BeforeStmt;
  const clang::Stmt *Anchor = nullptr;
  /// The buffer as the rewritten source names it at that point.
  std::string Buffer;
  std::set<ObjectId> Objects;
  /// Why it is there, printed as the line's comment.
  std::string Reason;
  /// For HostWritesFirst: the element count, as source text valid at the
  /// anchor (`scratch.size()`).
  std::string Count;
};

/// How one dispatch argument is passed to ComputeContext::launch.
struct LaunchArgument {
  const clang::Expr *Arg = nullptr;
  /// "ro", "wo", "woDeclared" (FERRY_WO: never copied in), "rw", "unused"
  /// for buffers; empty for scalars.
  std::string Wrapper;
  /// For a `wo` buffer whose covering store is guarded by `kc.x < n`: the
  /// argument bound to `n`, so the runtime can check the bound covers it.
  const clang::Expr *CoverageBound = nullptr;
  /// For a `wo` buffer whose covering store is a grid (GridCoverage): the
  /// arguments bound to its column guard, width and row guard or loop
  /// bound (null where the kernel has none), and the loop's constant bound.
  struct GridArguments {
    int ColDim = 0;
    const clang::Expr *ColBound = nullptr;
    std::optional<long long> ColCount;
    const clang::Expr *Width = nullptr;
    int RowDim = -1;
    const clang::Expr *RowBound = nullptr;
    std::optional<long long> RowCount;
    /// A volume (GridCoverage::PlaneRowsParam): the rows of a plane, and
    /// the planes, PlanesConst + PlanesPerTrip * max(0, TripBound +
    /// TripOffset - TripStart).
    const clang::Expr *PlaneRows = nullptr;
    long long PlanesConst = 1, PlanesPerTrip = 0;
    const clang::Expr *TripBound = nullptr;
    long long TripOffset = 0, TripStart = 0;
  };
  std::optional<GridArguments> Grid;
  /// A bound argument has side effects, so it cannot be evaluated twice:
  /// the runtime counts on no coverage (`ferry::wo(b, 0)`).
  bool CoverageUnknown = false;
  /// For scalars whose type differs from the kernel parameter's: the
  /// parameter type, spelled for a static_cast.
  std::string CastTo;
};

struct DispatchPlan {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Kernel = nullptr;
  std::string OpenCLName;
  std::vector<LaunchArgument> Arguments;
};

struct FunctionPlan {
  const clang::FunctionDecl *Function = nullptr;
  /// The ComputeContext parameter's name (`cc`).
  std::string Context;
  std::vector<Transfer> Transfers;
  std::vector<DispatchPlan> Dispatches;

  unsigned staticCopies() const;
  unsigned guardedCopies() const;
};

} // namespace ferry
