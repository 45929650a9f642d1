#pragma once
// Whether a copy may be hoisted above a loop: decided on Clang's CFG of the
// planned function. A copy placed before a loop is down-safe when every path
// that enters the loop meets a use of the copied data before it leaves the
// loop (a `break`, a `return`, the loop's test failing after a trip without
// the use). Otherwise the hoisted copy would move data on a run that never
// needs it, and the copy stays at its use, where the run-time state guards
// it (../shared/design/placement.md, invariant 2).

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <memory>
#include <set>

namespace ferry {

class DownSafety {
public:
  DownSafety(const clang::FunctionDecl *F, clang::ASTContext &Ctx);
  ~DownSafety();

  /// Whether every path from the point just before `Loop` meets one of
  /// `Uses` before it leaves `Loop`. Each use is a statement inside Loop
  /// (or Loop's condition) before which a line is placed: it runs whenever
  /// control enters that statement. `FirstTripRuns`: the loop's body surely
  /// runs once when the loop is reached (runsAtLeastOnce), so its first test
  /// cannot leave. False whenever the CFG cannot be built.
  bool everyPathUses(const clang::Stmt *Loop,
                     const std::set<const clang::Stmt *> &Uses,
                     bool FirstTripRuns) const;

private:
  struct Graph;
  std::unique_ptr<Graph> G;
};

} // namespace ferry
