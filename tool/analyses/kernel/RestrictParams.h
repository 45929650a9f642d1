#pragma once
// Which buffer parameters of a kernel may be declared `restrict` in the
// emitted OpenCL C (issue 31).
//
// `restrict` tells the kernel compiler that what a parameter points to is
// reached through no other parameter, so it may keep loads in registers
// across stores and use the read-only data path. Peers leave it to the
// programmer; Ferry proves it at every dispatch: a buffer parameter is
// `restrict` when, at every dispatch of the kernel, each other buffer
// parameter is bound to a different buffer (KernelDispatches.h). A
// parameter of an element type no other parameter has is so trivially.
//
// The result is plain data: the emitter prints it (tool/emit).

#include "clang/AST/Decl.h"

#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <set>

namespace ferry {

class KernelDispatches;

struct RestrictParams {
  /// Per kernel, the indices of its parameters that are `restrict`.
  std::map<const clang::FunctionDecl *, std::set<unsigned>> Kernels;

  bool isRestrict(const clang::FunctionDecl *Kernel, unsigned Index) const;
};

RestrictParams analyzeRestrictParams(
    llvm::ArrayRef<const clang::FunctionDecl *> Kernels,
    const KernelDispatches &Dispatches);

} // namespace ferry
