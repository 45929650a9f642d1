#pragma once
// The missing-barrier lint: a work-item reads an element of a ferry::Local
// (or a LocalSpan) that another work-item of its group wrote, and no
// kc.barrier() lies between the write and the read on some path of the
// function (straight-line code, branches, and loop back-edges, found on
// Clang's CFG). Ferry warns only where the two indices are sure to meet:
// `tile[kc.localX]` written and `tile[kc.localX + 1]` (or `+ step`) read;
// one element written by one or all work-items and read by all; an element
// each item writes at its own id read by all at the first one's; and any
// two affine indices (AffineIndex: ids with integer coefficients of any
// sign, shared terms that cancel) written and read by every work-item, at
// which two different work-items of a dispatch's group meet
// (`s[kc.localX]` written, `s[63 - kc.localX]` read, groups of 64). Two
// stores of such indices with no barrier between, which two work-items
// make to one element, are a racing write.

#include "analyses/CallGraphs.h"
#include "analyses/kernel/AffineIndex.h"
#include "lint/LintFinding.h"

#include "clang/AST/ASTContext.h"

#include <array>
#include <optional>
#include <vector>

namespace ferry {

/// Looks at the kernel and at every helper it reaches that declares its own
/// ferry::Local or is handed local memory as a pointer (`&tile[0]`,
/// `tile.data()`) by every call; each function on its own, with a call of a
/// helper that reaches kc.barrier() counted as a barrier.
/// The smallest work-group size per dimension of the kernel's dispatches,
/// where every one of them gives it as a constant.
using GroupSize = std::array<std::optional<long long>, 3>;

/// `Shapes`: the work-group size of each dispatch of the kernel that gives
/// every dimension as a constant (1 past the range's dimensions). Indices
/// of any integer coefficients of the ids (AffineIndex) are compared at
/// those sizes: `s[kc.localX]` written and `s[63 - kc.localX]` read by
/// every work-item meet for groups of 64.
std::vector<LintFinding> findMissingBarriers(clang::ASTContext &Ctx,
                                             const ReachableGraph &Kernel,
                                             const GroupSize &LocalSize,
                                             const std::vector<GroupShape> &Shapes);

} // namespace ferry
