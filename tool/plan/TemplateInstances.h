#pragma once
// Compute functions and helpers that are templates. Each instantiation is
// planned on its own, but the rewritten source has one text for all of
// them: their plans become one. Lines every instantiation plans stay as
// planned; a line only some plan is written guarded (`toDeviceIfStale`,
// `fromDeviceIfStale`), which the run-time state makes a no-op where it is
// not needed; a dispatch argument the instantiations pass differently is
// passed `rw`; a kernel that differs (`k<T>`) is named through a table of
// each instantiation's OpenCL name.

#include "plan/TransferPlan.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace ferry {

/// Replaces the plans of every template's instantiations in Plans by one
/// plan, kept where the first instantiation's was. Reports an error where
/// one text cannot serve them all (a scalar argument each converts to a
/// different type).
void mergeTemplateInstances(clang::ASTContext &Ctx,
                            std::vector<FunctionPlan> &Plans);

} // namespace ferry
