#include "plan/PlanningUnits.h"

#include "analyses/CallGraphs.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace ferry {

namespace {

class StructureFinder : public RecursiveASTVisitor<StructureFinder> {
public:
  explicit StructureFinder(const std::set<const FunctionDecl *> &Planned)
      : Planned(Planned) {}
  StatementStructure Found;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (isDispatchCall(Call))
      Found.Dispatch = true;
    else if (const FunctionDecl *F = Call->getDirectCallee();
             // Defined in another Ferry source: planned by the target.
             F && Planned.count(F->getDefinition() ? F->getDefinition() : F))
      Found.PlannedCall = true;
    // A call that may run compute code Ferry does not see (through a
    // function pointer, an override) may leave newer copies on the device:
    // host code after it in the same loop trip must have lines of its own.
    else if (isUnseenCallWithContext(Call))
      Found.PlannedCall = true;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) {
    Found.Return = true;
    return true;
  }
  bool VisitGotoStmt(GotoStmt *G) {
    if (!Found.Goto)
      Found.GotoLoc = G->getGotoLoc();
    Found.Goto = true;
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *T) {
    if (!Found.Try)
      Found.TryLoc = T->getTryLoc();
    Found.Try = true;
    return true;
  }
  bool TraverseForStmt(ForStmt *S) { return loop(S); }
  bool TraverseWhileStmt(WhileStmt *S) { return loop(S); }
  bool TraverseDoStmt(DoStmt *S) { return loop(S); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) { return loop(S); }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    // A break inside binds to the switch; a continue still leaves it.
    ++SwitchDepth;
    RecursiveASTVisitor::TraverseSwitchStmt(S);
    --SwitchDepth;
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) {
    Found.Jump |= LoopDepth == 0 && SwitchDepth == 0;
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *) {
    Found.Jump |= LoopDepth == 0;
    return true;
  }

private:
  template <class T> bool loop(T *S) {
    ++LoopDepth;
    int SavedSwitch = SwitchDepth;
    SwitchDepth = 0;
    for (Stmt *Child : S->children())
      TraverseStmt(Child);
    SwitchDepth = SavedSwitch;
    --LoopDepth;
    return true;
  }
  const std::set<const FunctionDecl *> &Planned;
  int LoopDepth = 0, SwitchDepth = 0;
};

bool containsContinue(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
      isa<CXXForRangeStmt>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (containsContinue(Child))
      return true;
  return false;
}

class Classifier {
public:
  Classifier(const std::set<const FunctionDecl *> &Planned,
             llvm::function_ref<bool(const Stmt *)> MustGoInside)
      : Planned(Planned), MustGoInside(MustGoInside) {}

  PlanningUnits Result;

  void visit(const Stmt *S) {
    if (!S)
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body())
        visit(Child);
      return;
    }
    if (asDispatch(S)) {
      add(S, StepKind::Dispatch, Placement::BeforeStmt, S);
      return;
    }
    // Branches are always walked, so that a copy a branch needs happens
    // only when it is taken.
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit())
        add(If->getInit(), StepKind::Host, Placement::BeforeStmt, If);
      condition(If->getConditionVariableDeclStmt(), If->getCond(),
                Placement::BeforeStmt, If);
      visit(If->getThen());
      visit(If->getElse());
      return;
    }
    StatementStructure Structure = structureOf(S, Planned);
    bool IsLoop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
                  isa<CXXForRangeStmt>(S);
    // A loop or switch with an overwrite inside, or a buffer named by a
    // reference it declares, is walked: `hostWrites` then sits at the
    // write, on the paths that make it, and every line names the buffer
    // where the name exists.
    if (!Structure.needsStructure() &&
        !((IsLoop || isa<SwitchStmt>(S)) && MustGoInside(S))) {
      add(S, StepKind::Host, Placement::BeforeStmt, S);
      return;
    }
    if (IsLoop) {
      loop(S);
      return;
    }
    if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      if (Switch->getInit())
        add(Switch->getInit(), StepKind::Host, Placement::BeforeStmt, Switch);
      condition(Switch->getConditionVariableDeclStmt(), Switch->getCond(),
                Placement::BeforeStmt, Switch);
      visit(Switch->getBody());
      return;
    }
    if (isa<ReturnStmt>(S)) {
      add(S, StepKind::Return, Placement::BeforeStmt, S);
      return;
    }
    if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<NullStmt>(S))
      return;
    if (const auto *Label = dyn_cast<LabelStmt>(S)) {
      visit(Label->getSubStmt());
      return;
    }
    if (const auto *Case = dyn_cast<SwitchCase>(S)) {
      visit(Case->getSubStmt());
      return;
    }
    if (Structure.Dispatch) {
      reportNestedDispatch(S);
      add(S, StepKind::Ignored, Placement::BeforeStmt, S);
      return;
    }
    // A statement that calls a planned function: the call hands buffers
    // over, and the statement is one step.
    add(S, StepKind::Host, Placement::BeforeStmt, S);
  }

private:
  unsigned add(const Stmt *Root, StepKind Kind, Placement Where,
               const Stmt *Anchor, const Stmt *Loop = nullptr) {
    Unit U;
    U.Kind = Kind;
    U.Root = Root;
    U.Where = Where;
    U.Anchor = Anchor;
    U.Loop = Loop;
    U.Order = static_cast<unsigned>(Result.Units.size());
    Result.Units.push_back(U);
    unsigned Index = static_cast<unsigned>(Result.Units.size() - 1);
    Result.RootOf[Root] = Index;
    if (const auto *DS = dyn_cast<DeclStmt>(Root))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Result.Declarations[V] = DS;
    return Index;
  }

  /// A condition, checked for dispatches; with a condition variable the
  /// declaration is what is planned, and the condition (its conversion)
  /// goes with it.
  void condition(const DeclStmt *CondVar, const Expr *Cond, Placement Where,
                 const Stmt *Anchor) {
    if (CondVar) {
      unsigned Index = add(CondVar, StepKind::Host, Where, Anchor);
      if (Cond)
        Result.RootOf[Cond] = Index;
      return;
    }
    if (!Cond)
      return;
    if (structureOf(Cond, Planned).Dispatch) {
      reportNestedDispatch(Cond);
      add(Cond, StepKind::Ignored, Where, Anchor);
      return;
    }
    add(Cond, StepKind::Host, Where, Anchor);
  }

  void loop(const Stmt *L) {
    Result.Loops.push_back(L);
    if (const auto *For = dyn_cast<ForStmt>(L)) {
      if (For->getInit())
        add(For->getInit(), StepKind::Host, Placement::BeforeStmt, L);
      entry(L);
      condition(For->getConditionVariableDeclStmt(), For->getCond(),
                Placement::InCondition, For->getCond());
      visit(For->getBody());
      if (For->getInc()) {
        if (structureOf(For->getInc(), Planned).Dispatch) {
          reportNestedDispatch(For->getInc());
          add(For->getInc(), StepKind::Ignored, Placement::InCondition,
              For->getInc());
        } else {
          add(For->getInc(), StepKind::Host, Placement::InCondition,
              For->getInc());
        }
      }
    } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
      entry(L);
      condition(W->getConditionVariableDeclStmt(), W->getCond(),
                Placement::InCondition, W->getCond());
      visit(W->getBody());
    } else if (const auto *Do = dyn_cast<DoStmt>(L)) {
      entry(L);
      visit(Do->getBody());
      // The condition's lines go at the end of the body when nothing can
      // skip there (no continue); otherwise into the condition itself.
      const auto *Body = dyn_cast<CompoundStmt>(Do->getBody());
      if (Body && !containsContinue(Do->getBody()))
        condition(nullptr, Do->getCond(), Placement::EndOfBlock, Body);
      else
        condition(nullptr, Do->getCond(), Placement::InCondition,
                  Do->getCond());
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(L)) {
      if (RF->getInit())
        add(RF->getInit(), StepKind::Host, Placement::BeforeStmt, L);
      add(RF->getRangeStmt(), StepKind::Host, Placement::BeforeStmt, L);
      entry(L);
      // `__begin != __end`: no host code of the user's, but the loop's
      // test, where a trip may not start.
      add(RF->getCond(), StepKind::LoopTest, Placement::BeforeStmt, L, L);
      for (const Stmt *Implicit :
           {static_cast<const Stmt *>(RF->getBeginStmt()),
            static_cast<const Stmt *>(RF->getEndStmt()),
            static_cast<const Stmt *>(RF->getInc())})
        if (Implicit)
          Result.Transparent.insert(Implicit);
      // `for (auto &b : levels)`: b names an element in the body.
      add(RF->getLoopVarStmt(), StepKind::LoopVariable, Placement::BeforeStmt,
          L, L);
      visit(RF->getBody());
    }
  }

  /// The loop's entry step, ordered after the loop's initialisers.
  void entry(const Stmt *L) {
    Unit U;
    U.Kind = StepKind::LoopEntry;
    U.Root = nullptr;
    U.Where = Placement::BeforeStmt;
    U.Anchor = L;
    U.Loop = L;
    U.Order = static_cast<unsigned>(Result.Units.size());
    Result.Units.push_back(U);
  }

  void reportNestedDispatch(const Stmt *S) {
    struct First : RecursiveASTVisitor<First> {
      const CallExpr *Found = nullptr;
      bool VisitCallExpr(CallExpr *C) {
        if (!Found && isDispatchCall(C))
          Found = C;
        return true;
      }
    } Find;
    Find.TraverseStmt(const_cast<Stmt *>(S));
    Result.Errors.push_back(
        {Find.Found ? Find.Found->getExprLoc() : S->getBeginLoc(),
         "a dispatch must be a statement of its own, so that Ferry can place "
         "transfers around it"});
  }

  const std::set<const FunctionDecl *> &Planned;
  llvm::function_ref<bool(const Stmt *)> MustGoInside;
};

} // namespace

StatementStructure
structureOf(const Stmt *S, const std::set<const FunctionDecl *> &Planned) {
  StructureFinder Finder(Planned);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.Found;
}

const CallExpr *asDispatch(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreImplicit());
  return isDispatchCall(Call) ? Call : nullptr;
}

PlanningUnits
findPlanningUnits(const FunctionDecl *F, ASTContext &Ctx,
                  const std::set<const FunctionDecl *> &Planned,
                  llvm::function_ref<bool(const Stmt *)> MustGoInside) {
  Classifier C(Planned, MustGoInside);
  StatementStructure Whole = structureOf(F->getBody(), Planned);
  if (Whole.Goto) {
    C.Result.Errors.push_back(
        {Whole.GotoLoc, "compute function '" + F->getNameAsString() +
                            "' uses goto, which Ferry's planner does not "
                            "follow"});
    C.Result.Failed = true;
    return std::move(C.Result);
  }
  if (Whole.Try) {
    C.Result.Errors.push_back(
        {Whole.TryLoc, "compute function '" + functionLabel(F) +
                           "' uses try, which Ferry's planner does not "
                           "follow (an exception would skip the copies "
                           "planned after its throw); catch outside the "
                           "compute"});
    C.Result.Failed = true;
    return std::move(C.Result);
  }
  C.visit(F->getBody());
  return std::move(C.Result);
}

} // namespace ferry
