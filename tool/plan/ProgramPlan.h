#pragma once
// Everything Ferry knows about one translation unit, from the parsed AST to
// a transfer plan per compute function: the data `ferry analyze` prints and
// `ferry rewrite` prints into source.

#include "analyses/CallGraphs.h"
#include "analyses/host/HostAccess.h"
#include "analyses/kernel/KernelAccess.h"
#include "analyses/lifetime/KeptBetweenComputes.h"
#include "analyses/lifetime/ComputeOnlyMembers.h"
#include "model/ProgramModel.h"
#include "plan/TransferPlan.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace ferry {

class TargetSummaries;

struct ProgramPlan {
  ProgramModel Model;
  std::vector<ReachableGraph> KernelGraphs;
  std::vector<ReachableGraph> ComputeGraphs;
  std::map<const clang::FunctionDecl *, KernelAccessSummary> Kernels;
  /// FERRY_COMPUTE functions and every function they reach that dispatches.
  std::set<const clang::FunctionDecl *> Planned;
  /// Planned functions no planned function calls: where a compute starts.
  std::set<const clang::FunctionDecl *> Entries;
  /// Planned functions called only from planned functions: they leave each
  /// buffer where its latest copy is, for the caller's plan to go on from.
  std::set<const clang::FunctionDecl *> Internal;
  /// Per entry, the buffer parameters dead once Accelerator::compute
  /// returns (analyses/lifetime/ExitLiveness.h): no copy back at its exit.
  std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>>
      DeadAfterCompute;
  /// Per entry, the buffers (parameters, or a planned lambda's captures)
  /// whose device copy may still be valid from the previous compute, because
  /// a compute call that reaches it keeps them (`acc.keepOnDevice`): their
  /// device copy starts unknown rather than stale.
  std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>>
      MayStayOnDevice;
  /// Private buffer members only compute code names, and those code outside
  /// computes only reads (analyses/lifetime/ComputeOnlyMembers.h): their device
  /// copy is kept for later computes; the former are never copied home at an
  /// exit.
  PrivateMembers Members;
  /// The compute calls of the main file that keep buffers on the device
  /// (analyses/lifetime/KeptBetweenComputes.h): the rewriter writes
  /// `acc.keepOnDevice(b);` before each.
  std::vector<KeptAtCompute> KeptAtComputes;
  /// The loops of the main file whose computes leave buffers on the device
  /// until they end (analyses/lifetime/LeftOnDeviceInLoops.h): the
  /// rewriter puts each in a block that brings them home at its end.
  std::vector<LeftOnDeviceInLoop> LeftOnDevice;
  /// One per planned function defined in the main file, in source order.
  std::vector<FunctionPlan> Functions;
  /// Host events per planned function (for `ferry analyze`).
  std::map<const clang::FunctionDecl *, std::vector<HostEvent>> Events;
  std::map<const clang::FunctionDecl *, std::shared_ptr<ObjectTable>> Objects;
};

/// Runs every analysis and the planner. Errors go through Ctx's diagnostics
/// engine; check it before using the result.
/// `Target`, when given, holds the summaries of the target's other Ferry
/// sources: calls into them are planned as calls within this file.
ProgramPlan planProgram(clang::ASTContext &Ctx,
                        const TargetSummaries *Target = nullptr);

} // namespace ferry
