#pragma once
// The planner's output: plain data the rewriter prints and tests inspect.

#include "analyses/paths/ObjectTable.h"
#include "analyses/kernel/KernelAccess.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <optional>
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
  /// The safety net, for buffers Ferry cannot name (`Buffer` holds their
  /// element type, spelled, or "" for any): copy home from every buffer of
  /// that type the pieces the device holds newer...
  FromDeviceAllOf,
  /// ...and then count all of each stale on the device: the host may write
  /// any of them.
  HostWritesAllOf,
  /// Before a host read of such a buffer: as FromDeviceAllOf, but also the
  /// buffers KeepOnDevice kept (the exit's net leaves those on the device).
  HostReadsAllOf,
  /// Only compute code names the buffer (a private member, ComputeOnly in
  /// TransferPlanner.h): its state carries into every later compute, and
  /// no exit copies it home.
  KeepOnDevice,
  /// Code outside computes only reads the buffer (a private member,
  /// HostReadsOnly): its state carries into every later compute, and the
  /// exits bring it home as any other.
  KeepDeviceCopy,
};

const char *runtimeCallName(TransferKind K);
inline bool isGuarded(TransferKind K) {
  return K == TransferKind::ToDeviceIfStale ||
         K == TransferKind::FromDeviceIfStale ||
         K == TransferKind::HostWritesFirst ||
         K == TransferKind::FromDeviceAllOf ||
         K == TransferKind::HostWritesAllOf ||
         K == TransferKind::HostReadsAllOf;
}
inline bool isUnnamed(TransferKind K) {
  return K == TransferKind::FromDeviceAllOf ||
         K == TransferKind::HostWritesAllOf ||
         K == TransferKind::HostReadsAllOf;
}
inline bool isCopy(TransferKind K) {
  return K != TransferKind::HostWrites && K != TransferKind::KeepOnDevice &&
         K != TransferKind::KeepDeviceCopy;
}

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
  /// For a line about part of the buffer (ToDevice… to HostWrites): its
  /// elements [RangeFirst, RangeFirst + RangeCount), as source text valid
  /// at the anchor; empty for the whole buffer.
  std::string RangeFirst, RangeCount;
  /// `Buffer` is a container of buffers: the line does it for each element
  /// (ElementSteps.h).
  bool EachElement = false;
  /// A condition, as source text valid at the anchor, that the line runs
  /// under: the pointers `Buffer` is reached through are not null (a line
  /// placed where the code has not dereferenced them yet).
  std::string OnlyIf;
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
  /// For a `wo` buffer whose covering store is a grid: the kernel's grid,
  /// whose parameters the rewriter spells as this dispatch's arguments.
  std::optional<GridCoverage> Grid;
  /// A bound argument has side effects, so it cannot be evaluated twice:
  /// the runtime counts on no coverage (`ferry::wo(b, 0)`).
  bool CoverageUnknown = false;
  /// For a `woFrom` buffer (a store at the linear index plus an offset):
  /// the first element it covers, in the dispatch's terms (`width`).
  std::string CoverageFirst;
  /// For scalars whose type differs from the kernel parameter's: the
  /// parameter type, spelled for a static_cast.
  std::string CastTo;
};

struct DispatchPlan {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Kernel = nullptr;
  std::string OpenCLName;
  /// In a template whose instantiations dispatch different kernels (`k<T>`):
  /// each instantiation's kernel, spelled (`::k<float>`), and its OpenCL
  /// name; the launch looks its name up at run time (TemplateInstances.h).
  std::vector<std::pair<std::string, std::string>> NameTable;
  std::vector<LaunchArgument> Arguments;

  /// The dispatch's argument for the kernel's parameter `Param` (the
  /// dispatch passes the range first), or null for -1.
  const clang::Expr *argumentFor(int Param) const {
    return Param < 0 ? nullptr : Call->getArg(Param + 1);
  }
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
