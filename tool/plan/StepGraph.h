#pragma once
// The planned function as a graph of steps: Clang's CFG, contracted onto the
// planning units (PlanningUnits.h). A unit's CFG elements, however many
// blocks they span (a host loop, a condition with `&&`), become one step;
// blocks without a step only pass control on. Each loop walked inside gets
// an entry step on every edge into it, where copies hoisted above it go.
// The planner's data flow runs on this graph (TransferPlanner.cpp).

#include "plan/PlanningUnits.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>
#include <vector>

namespace ferry {

struct Step : Unit {
  std::vector<unsigned> Succs, Preds;
};

/// A loop walked inside, as steps.
struct LoopSteps {
  const clang::Stmt *Loop = nullptr;
  /// Its LoopEntry step: every path into the loop passes it.
  unsigned Entry = 0;
  /// Per step: whether it lies inside the loop (its test, increment, body).
  std::vector<bool> Members;
  /// For a loop that tests before its first trip (for, while, range-for):
  /// the step its test leads to when it passes, if any.
  std::optional<unsigned> TestPassed;
  /// The step of that test, if the loop has one.
  std::optional<unsigned> Test;
  /// How many loops walked inside hold this one.
  unsigned Depth = 0;
};

class StepGraph {
public:
  /// F's steps, or nullopt (with the error in `Error`) when Clang cannot
  /// build its CFG or a statement of it belongs to no step.
  static std::optional<StepGraph>
  build(const clang::FunctionDecl *F, clang::ASTContext &Ctx,
        const PlanningUnits &Units,
        std::pair<clang::SourceLocation, std::string> &Error);

  static constexpr unsigned EntryStep = 0;
  static constexpr unsigned FallOffEndStep = 1;

  std::vector<Step> Steps;
  std::vector<LoopSteps> Loops;

  /// The steps in reverse post-order from the entry (each before its
  /// successors, but for back edges): the order data flow converges fastest.
  std::vector<unsigned> reversePostOrder() const;
  /// The step of the unit `Index` of the PlanningUnits it was built from.
  unsigned stepOfUnit(unsigned Index) const { return Index + 2; }
};

} // namespace ferry
