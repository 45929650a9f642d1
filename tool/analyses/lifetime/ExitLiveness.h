#pragma once
// Which buffers no code uses after Accelerator::compute returns.
//
// The contract makes every buffer the host can reach current when compute
// returns. A local buffer of the function that calls `acc.compute`, which
// that function never names again and whose identity and elements never went
// anywhere that outlives the statement using them, is reachable by no one
// then: copying it back would move bytes nobody can read (PolyBench's scratch
// matrices, written by one kernel and read by the next).
//
// The test is syntactic and errs towards "live": any use it cannot place
// (a pointer or reference kept, a lambda that may run later, a loop or goto
// that may run the compute again) keeps the copy.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <functional>
#include <map>
#include <set>

namespace ferry {

/// For each function of `Entries` (compute functions no planned function
/// calls): its buffer parameters that every call binds to a local buffer of
/// the function calling `acc.compute`, dead once that compute returns. Such a
/// parameter needs no copy back at the function's exit.
/// For a function with no body here (defined in another Ferry source,
/// plan/FileSummary.h): whether its parameter `Index` keeps nothing of what
/// it is given. Unset, such a call keeps everything.
using KeepsNothingElsewhere =
    std::function<bool(const clang::FunctionDecl *, unsigned)>;

std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>>
buffersDeadAfterCompute(clang::ASTContext &Ctx,
                        const std::set<const clang::FunctionDecl *> &Entries,
                        const KeepsNothingElsewhere &Elsewhere = {});

/// Whether F's buffer parameter `Index` keeps nothing of what it is given
/// once F returns (its body followed; false without one).
bool parameterKeepsNothing(clang::ASTContext &Ctx,
                           const clang::FunctionDecl *F, unsigned Index);

} // namespace ferry
