#pragma once
// Checks of one dispatch against what its kernel needs, where the range is
// written in the call:
//  * a FERRY_WO buffer the range visibly covers only in part (a warning:
//    the runtime trusts the promise and copies nothing in, so the rest of
//    the buffer comes back as whatever the device held);
//  * a kernel that uses work-groups dispatched without `.local(...)` (an
//    error: the device would pick the group size).

#include "analyses/CallGraphs.h"
#include "analyses/kernel/KernelAccess.h"
#include "lint/LintFinding.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace ferry {

std::vector<LintFinding>
checkWriteOnlyCoverage(clang::ASTContext &Ctx, const clang::CallExpr *Dispatch,
                       const clang::FunctionDecl *Caller,
                       const KernelAccessSummary &Kernel);

std::vector<LintFinding> checkMissingLocal(clang::ASTContext &Ctx,
                                           const clang::CallExpr *Dispatch,
                                           const ReachableGraph &Kernel);

} // namespace ferry
