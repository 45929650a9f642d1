#pragma once
// Facts about statements that the kernel and host analyses both rely on:
// whether a variable keeps its value, whether control may leave early, and
// the shape of a counting `for` loop.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace ferry {

/// S may change V: assigns it, increments it, takes its address, binds a
/// non-const reference to it or passes it to one.
bool changes(const clang::Stmt *S, const clang::VarDecl *V);

/// Whether S may end what runs it before the statements after S run: a
/// return, goto or throw anywhere, a break or continue that leaves no loop
/// (or switch, for break) of S's own.
bool mayExitEarly(const clang::Stmt *S, bool InLoop = false,
                  bool InSwitch = false);

/// `for (int k = A; k < B; ++k)` (or `k++`, `k += 1`), A a constant, and
/// nothing in the body changes k. What B means is the caller's to decide.
/// With `AllowInclusive`, also `k <= B` (then Inclusive: B + 1 bounds it).
struct CountingLoop {
  const clang::VarDecl *Var = nullptr;
  long long Start = 0;
  const clang::Expr *Bound = nullptr; ///< B, parentheses and casts removed
  bool Inclusive = false;
};
std::optional<CountingLoop> countingLoop(const clang::ForStmt *For,
                                         bool AllowInclusive = false);

/// Whether the body of loop L surely runs at least once when L is reached:
/// a do-while, a loop whose condition is absent or a true constant, or a
/// `for (int k = A; k < B; …)` (<, <=, !=, >, >=) with A and B constants
/// that satisfy it. Copies may be hoisted only above such loops: above any
/// other, they would move data on a run where the loop does nothing.
bool runsAtLeastOnce(const clang::Stmt *L, const clang::ASTContext &Ctx);

} // namespace ferry
