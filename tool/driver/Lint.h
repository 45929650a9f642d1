#pragma once
// The race lint run over a planned program: warnings (racing writes,
// missing barriers, FERRY_WO buffers a dispatch covers in part) and the
// error for a work-group kernel dispatched without `.local`. Warnings never
// fail the command and change nothing it writes; `-Wno-ferry-race` turns
// them off.

#include "plan/ProgramPlan.h"

#include "clang/AST/ASTContext.h"

namespace ferry {

/// Reports through Ctx's diagnostics engine; check it for errors after.
void lintProgram(clang::ASTContext &Ctx, const ProgramPlan &Plan);

} // namespace ferry
