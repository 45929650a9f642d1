#pragma once
// The racing-write lint: a store to a buffer that every work-item of a
// dispatch (or of a work-group) makes to the same element, outside an
// atomic. The index and every condition guarding the store come out of
// WorkItemVariance; a store whose index and guards are all the same for
// every work-item of a group is a data race on any range of more than one.

#include "analyses/kernel/AffineIndex.h"
#include "analyses/kernel/KernelAccess.h"
#include "lint/LintFinding.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace ferry {

struct RaceLintScope {
  /// Some dispatch of the kernel may run more than one work-item.
  bool ManyItems = true;
  /// Some dispatch may run more than one work-item in a group.
  bool ManyItemsPerGroup = true;
  /// The global size of each dispatch of the kernel that gives every
  /// dimension as a constant (1 past the range's dimensions): a store whose
  /// affine index maps two of its work-items onto one element (`out[kc.x]`
  /// over a 2-D range) races there.
  std::vector<GroupShape> GlobalShapes;
};

/// Stores in the kernel, and in the helpers it hands buffer pointers to,
/// that every work-item makes to one element.
std::vector<LintFinding> findRacingWrites(clang::ASTContext &Ctx,
                                          const KernelAccessSummary &Kernel,
                                          RaceLintScope Scope);

} // namespace ferry
