#pragma once
// Decides every transfer of one compute function: a forward dataflow over
// its statements that tracks, for each buffer object, whether the host and
// device copies are valid, and inserts the fewest copies that make each
// access see the latest data.

#include "analyses/host/HostAccess.h"
#include "analyses/kernel/KernelAccess.h"
#include "analyses/lifetime/ComputeOnlyMembers.h"
#include "plan/TransferPlan.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <set>

namespace ferry {

struct PlanningContext {
  clang::ASTContext &Ctx;
  /// Summaries of every kernel in the translation unit.
  const std::map<const clang::FunctionDecl *, KernelAccessSummary> &Kernels;
  HostSummaryCache &Host;
  /// Functions planned on their own: FERRY_COMPUTE ones and any reachable
  /// function that dispatches. A call to one hands its buffers over.
  const std::set<const clang::FunctionDecl *> &Planned;
  /// Per entry function, the buffer parameters nothing uses once
  /// Accelerator::compute returns: they need no copy back at its exit.
  const std::map<const clang::FunctionDecl *,
                 std::set<const clang::ValueDecl *>> &DeadAfterCompute;
  /// Per entry function, the buffers whose device copy may still be valid
  /// from the previous compute (ProgramPlan::MayStayOnDevice).
  const std::map<const clang::FunctionDecl *,
                 std::set<const clang::ValueDecl *>> &MayStayOnDevice;
  /// Private buffer members (analyses/lifetime/ComputeOnlyMembers.h). Both
  /// kinds are kept on the device into every later compute and start unknown
  /// on both sides where a compute starts; those only compute code names
  /// (`ComputeOnly`) are never copied home at an exit.
  const PrivateMembers &Members;
  /// Filled in while planning: planned functions that would leave their
  /// buffers to their caller, but handed a planned callee a buffer they
  /// cannot name, or dispatched on one: they bring their buffers home on
  /// return after all, the unnamed ones through the safety net.
  std::set<const clang::FunctionDecl *> MustSyncAtExit;
  /// Filled in while planning: per function that brings its buffers home at
  /// its exits, the element types (spelled; empty: any type) of buffers it
  /// hands to planned callees without being able to name them (a private
  /// member of an object in a container). Its exits then bring home every
  /// buffer of those types the device holds newer: the run-time safety net.
  std::map<const clang::FunctionDecl *, std::set<std::string>> UnnamedAtExit;
  /// The planned functions that leave their buffers to their planned
  /// callers (ProgramPlan::Internal); the others bring them home.
  const std::set<const clang::FunctionDecl *> *Internal = nullptr;
  /// The call operators of lambdas written as the argument of an
  /// Accelerator::compute call: the runtime runs each once, where an epoch
  /// starts, so its run-time state agrees with the plan's start. Any other
  /// entry may run more than once in a compute.
  const std::set<const clang::FunctionDecl *> *StartsCompute = nullptr;
};

/// How a transfer line spells the element type of buffers Ferry cannot
/// name (`float`, `ns::Particle`), or "" (any type) where the type cannot
/// be spelled everywhere: a guess of several types, or a local class.
std::string unnamedElementSpelling(clang::ASTContext &Ctx, clang::QualType T);

/// Plans `F`. `Entry` is true when no planned function calls F, so on entry
/// the device holds nothing of this call's (the runtime starts a new epoch
/// in Accelerator::compute). `Internal` is true when only planned functions
/// call F: it then starts knowing nothing of its buffers (its callers copy
/// nothing for it) and returns them wherever their latest copy is, and the
/// caller's plan goes on from the run-time state. Otherwise F makes the host
/// copy of every buffer its caller can reach current before it returns.
/// Reports unsupported code as errors.
FunctionPlan planFunction(PlanningContext &PC, const clang::FunctionDecl *F,
                          bool Entry, bool Internal);

} // namespace ferry
