#pragma once
// Which buffers a loop of computes may leave on the device until it ends
// (issue 33): a time loop that runs computes and nothing else on a buffer
// brings it home once, after the loop, instead of at every compute's exit.
//
// The copies home a compute makes at its exits are written in the compute
// function, which every caller shares; what differs is the caller's loop.
// Where no code of the loop reads or writes the buffer but the kernels its
// computes dispatch (KeptBetweenComputes.cpp judges the host code between
// the computes; usedOnlyByKernels below the computes' own code), the
// rewriter puts the loop in a block that starts with
//
//   ferry::HomeAtScopeEnd ferry_home_12(acc, m.u, m.v);
//
// and the runtime then skips the exits' copies of those buffers, carries
// their state from compute to compute, and brings them home when the block
// ends: after the last trip, at a `break` or a `return` inside the loop, or
// when an exception leaves it (docs/how-ferry-decides.md).

#include "analyses/host/HostAccess.h"
#include "analyses/paths/AccessPath.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace ferry {

/// One loop whose computes leave buffers on the device until it ends.
struct LeftOnDeviceInLoop {
  /// The loop (for, range-for, while, do) and the function it is in.
  const clang::Stmt *Loop = nullptr;
  const clang::FunctionDecl *Function = nullptr;
  /// The accelerator every compute of the loop runs on, as the first of
  /// them spells it (`acc`, `acc_`, `st.acc`): an object, named from a
  /// variable in scope before the loop or from `this`.
  const clang::Expr *Accelerator = nullptr;
  /// The buffers, as KeptAtCompute names them: a variable, or an object
  /// (Function itself for `this`) with the path of the buffer inside it.
  std::vector<const clang::ValueDecl *> Buffers;
  std::vector<FieldPath> Paths;
  /// Per buffer: a member the function may not name (private, `model.u_`
  /// from main). The block holds its whole object instead,
  ///
  ///   ferry::HomeAtScopeEnd ferry_home_12(acc, ferry::buffersIn(model));
  ///
  /// which the runtime reads as every buffer stored inside it: every buffer
  /// of the object is followed, and none is used in the loop but by kernels.
  std::vector<bool> Whole;
  /// Per buffer: one inside each element of a container of objects (the
  /// buffer's variable is the container, its path inside an element), held
  /// as the bytes of all elements: ferry::buffersIn(bodies).
  std::vector<bool> InElements;
};

/// What Body (a compute lambda's body, or a function that code calls) does
/// to the buffer at Path below Root: a variable (a parameter, a captured
/// variable, a pointer to the object, followed through `->`), or `this`
/// where Root is null. Follows the buffer, and the objects holding it, into
/// the functions and member functions they are handed to, where their
/// bodies are visible and no override may run instead; into one defined in
/// another Ferry source of the target through `Elsewhere`, what that file's
/// summary says (HostSummaryCache::ElsewhereKernelUse).
KernelUse usedOnlyByKernels(const clang::Stmt *Body, const clang::ValueDecl *Root,
                            const FieldPath &Path,
                            const KernelUseElsewhere *Elsewhere = nullptr);

/// The same for the buffer at Path inside each element of Container, a
/// container of objects (`std::vector<Body> bodies`, an array of them):
/// its range-for, its elements by index, its size, itself handed by
/// reference to a function Ferry sees; anything else is a use.
KernelUse elementsUsedOnlyByKernels(const clang::Stmt *Body,
                                    const clang::ValueDecl *Container,
                                    const FieldPath &Path,
                                    const KernelUseElsewhere *Elsewhere = nullptr);

} // namespace ferry
