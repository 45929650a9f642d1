#pragma once
// Which statements of a planned function the planner takes as one step, and
// where each step's lines go.
//
// A stretch of host code with no dispatch, no call of a planned function and
// no jump out of it is one step, however many loops it holds: its copies go
// before it, not into each of its iterations. A dispatch is a step; so is a
// return (its value, then the exit copies). Compound statements, `if`s,
// and loops and switches that hold a dispatch, a planned call or a jump out
// are not steps: their conditions, initialisers and increments are, and the
// statements inside them are classified in turn. The step graph
// (StepGraph.h) then connects the steps along Clang's CFG.

#include "plan/TransferPlan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <string>
#include <set>
#include <vector>

namespace ferry {

enum class StepKind {
  Entry,        ///< the function's start: the entry state
  Host,         ///< a stretch of host code, planned as one
  Dispatch,     ///< `cc.dispatch(…)` as a statement of its own
  Return,       ///< `return [value];`: the value, then the exit copies
  FallOffEnd,   ///< the end of the body reached: the exit copies
  LoopVariable, ///< a range-for's element variable: binds a name only
  LoopTest,     ///< a loop test with no host code of its own (a range-for's)
  LoopEntry,    ///< just before a loop: where copies hoisted above it go
  Ignored,      ///< code already reported as an error: no effect
};

struct Unit {
  StepKind Kind = StepKind::Host;
  /// The statement the step plans (for a Host step, what its lines cover).
  const clang::Stmt *Root = nullptr;
  Placement Where = Placement::BeforeStmt;
  const clang::Stmt *Anchor = nullptr;
  /// For LoopVariable, LoopTest and LoopEntry: the loop.
  const clang::Stmt *Loop = nullptr;
  /// The order in which a reader meets the step (a `for`'s increment after
  /// its body): the order of the plan's lines at one anchor.
  unsigned Order = 0;
};

struct PlanningUnits {
  std::vector<Unit> Units;
  /// Statements of the body that belong to a unit (its root, or one of a
  /// loop's or if's pieces planned with another: a condition variable's
  /// declaration with the condition), to the unit's index.
  std::map<const clang::Stmt *, unsigned> RootOf;
  /// Implicit pieces that have no step (a range-for's begin, end and
  /// increment): the CFG holds them, the plan has nothing to do for them.
  std::set<const clang::Stmt *> Transparent;
  /// Loops walked inside (holding steps of their own), outermost first.
  std::vector<const clang::Stmt *> Loops;
  /// Local buffer declarations, for which statements they are in scope.
  std::map<const clang::VarDecl *, const clang::DeclStmt *> Declarations;
  /// Code the planner does not follow (goto, try, a dispatch inside an
  /// expression): errors for the planner to report, once.
  std::vector<std::pair<clang::SourceLocation, std::string>> Errors;
  /// Goto or try: nothing is planned.
  bool Failed = false;
};

/// Classifies F's body. `Planned`: functions whose calls hand buffers over.
/// `MustGoInside(S)`: a loop or switch without dispatches that must still be
/// walked inside (a write in it changes the state without a copy, or names
/// its buffer through a name it rebinds). Goto, try and dispatches nested in
/// expressions are errors (PlanningUnits::Errors).
PlanningUnits
findPlanningUnits(const clang::FunctionDecl *F, clang::ASTContext &Ctx,
                  const std::set<const clang::FunctionDecl *> &Planned,
                  llvm::function_ref<bool(const clang::Stmt *)> MustGoInside);

/// What makes a statement need the structured walk rather than being one
/// host stretch: dispatches, calls to planned functions, returns, and
/// jumps that leave it.
struct StatementStructure {
  bool Dispatch = false, PlannedCall = false, Return = false, Jump = false,
       Goto = false, Try = false;
  clang::SourceLocation GotoLoc, TryLoc; ///< the first of each
  bool needsStructure() const {
    return Dispatch || PlannedCall || Return || Jump;
  }
};
StatementStructure
structureOf(const clang::Stmt *S,
            const std::set<const clang::FunctionDecl *> &Planned);

/// The dispatch `S` is, as a statement, or null.
const clang::CallExpr *asDispatch(const clang::Stmt *S);

} // namespace ferry
