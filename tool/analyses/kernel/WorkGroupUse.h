#pragma once
// Where a kernel first uses a work-group feature (kc.localX/Y/Z,
// kc.localSizeX/Y/Z, kc.groupX/Y/Z, kc.groupsX/Y/Z, kc.barrier(), a
// ferry::Local, a ferry::LocalSpan parameter), directly or in a helper: such
// a kernel needs its dispatch to give the group size (`.local(...)`).

#include "analyses/CallGraphs.h"
#include "model/FerryTypes.h"

#include "clang/AST/Decl.h"

#include <optional>
#include <string>

namespace ferry {

struct WorkGroupUse {
  clang::SourceLocation Loc;
  /// `kc.localX`, `kc.barrier()`, `ferry::Local 'tile'`, ...
  std::string What;
  /// The function the use is in: the kernel or one of its helpers.
  const clang::FunctionDecl *In = nullptr;
};

/// The first use in the kernel's body in source order, else the first in
/// the helpers it reaches; none when the kernel needs no work-groups.
std::optional<WorkGroupUse> firstWorkGroupUse(const ReachableGraph &Kernel);

} // namespace ferry
