#pragma once
// How the plan of one Ferry source takes the target's other sources into
// account (plan/TargetSummaries.h): the hooks plan/ProgramPlan.cpp calls.
// Without summaries, each is the identity and a file is planned alone.

#include "analyses/CallGraphs.h"
#include "analyses/lifetime/ExitLiveness.h"
#include "analyses/host/HostAccess.h"
#include "plan/TargetSummaries.h"

#include "clang/AST/ASTContext.h"

#include <functional>
#include <map>
#include <set>
#include <vector>

namespace ferry {

/// Lets `Host` summarise calls to functions another Ferry source defines.
void useTargetHostAccess(HostSummaryCache &Host, const TargetSummaries &T);

/// Functions with a body here that the target plans but this file alone
/// would not (a dispatching helper only another file's compute function
/// calls; a caller of another file's dispatching helper): each is handed to
/// `PlanRoot` when no graph of `Graphs` contains it yet, then marked planned.
void addTargetPlanned(clang::ASTContext &Ctx, const TargetSummaries &T,
                      const std::vector<ReachableGraph> &Graphs,
                      std::set<const clang::FunctionDecl *> &Planned,
                      const std::function<void(const clang::FunctionDecl *)>
                          &PlanRoot);

/// Every declaration here of a function another Ferry source defines and
/// the target plans: a call to one hands its buffers over, as a call to a
/// planned function of this file does.
std::set<const clang::FunctionDecl *>
plannedElsewhere(clang::ASTContext &Ctx, const TargetSummaries &T);

/// Corrects this file's entries and internal functions with the calls the
/// other files make: a function a planned function elsewhere calls is no
/// entry; one is internal when every call to it in every file is a direct
/// call from planned code (docs/multi-file.md).
void adjustEntriesAndInternal(const TargetSummaries &T,
                              const std::set<const clang::FunctionDecl *> &Planned,
                              std::set<const clang::FunctionDecl *> &Entries,
                              std::set<const clang::FunctionDecl *> &Internal);

/// What the target's summaries say a function of another file keeps of
/// its arguments (analyses/lifetime/ExitLiveness.h).
KeepsNothingElsewhere targetKeepsNothing(const TargetSummaries &T);

/// Narrows or widens the buffer parameters of this file's entries that need
/// no copy back: a parameter is dead after the compute only when every call,
/// in every file, binds it to a buffer its caller never uses again.
void adjustDeadAfterCompute(
    const TargetSummaries &T,
    const std::set<const clang::FunctionDecl *> &Entries,
    std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>>
        &Dead);

/// Adds to this file's entries the buffer parameters that computes in the
/// other files keep on the device (FileSummary::KeptOnDevice), so that
/// their plans start them device-unknown; an entry inline in a header takes
/// the target's decision, this file's computes included, as every copy of
/// it must be the same.
void adjustMayStayOnDevice(
    const TargetSummaries &T,
    const std::set<const clang::FunctionDecl *> &Entries,
    std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>>
        &Kept);

} // namespace ferry
