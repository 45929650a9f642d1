#include "analyses/LoopShape.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ferry {

static bool names(const Expr *E, const VarDecl *V) {
  const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return R && R->getDecl() == V;
}

bool changes(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->isAssignmentOp() && names(B->getLHS(), V))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
      names(U->getSubExpr(), V))
    return true;
  // `int &r = v;`, or `bump(v)` with `void bump(int &)`: changed through
  // another name. A callee Ferry cannot see counts as changing it.
  auto MutableRef = [](QualType T) {
    return T->isReferenceType() &&
           !T.getNonReferenceType().isConstQualified();
  };
  if (const auto *D = dyn_cast<DeclStmt>(S))
    for (const Decl *Each : D->decls())
      if (const auto *Var = dyn_cast<VarDecl>(Each);
          Var && Var->getInit() && MutableRef(Var->getType()) &&
          names(Var->getInit(), V))
        return true;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    // An operator called as a member takes its object first.
    unsigned Skip = isa<CXXOperatorCallExpr>(Call) && Callee &&
                            isa<CXXMethodDecl>(Callee)
                        ? 1
                        : 0;
    for (unsigned I = Skip; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (!Arg->isGLValue() || !names(Arg, V))
        continue;
      unsigned P = I - Skip;
      if (!Callee || P >= Callee->getNumParams() ||
          MutableRef(Callee->getParamDecl(P)->getType()))
        return true;
    }
  }
  for (const Stmt *Child : S->children())
    if (changes(Child, V))
      return true;
  return false;
}

bool mayExitEarly(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<CXXThrowExpr>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !InLoop && !InSwitch;
  if (isa<ContinueStmt>(S))
    return !InLoop;
  bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
              isa<CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (mayExitEarly(Child, InLoop || Loop, InSwitch || Switch))
      return true;
  return false;
}

std::optional<CountingLoop> countingLoop(const ForStmt *For,
                                         bool AllowInclusive) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *V = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!V || !V->getType()->isIntegerType() || !V->getInit() ||
      V->getInit()->isValueDependent() || !For->getCond() || !For->getInc())
    return std::nullopt;
  ASTContext &Ctx = V->getASTContext();
  Expr::EvalResult Start;
  if (!V->getInit()->EvaluateAsInt(Start, Ctx))
    return std::nullopt;
  const auto *Cond =
      dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Cond || !names(Cond->getLHS(), V) ||
      !(Cond->getOpcode() == BO_LT ||
        (AllowInclusive && Cond->getOpcode() == BO_LE)))
    return std::nullopt;
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  bool Step1 = false;
  Expr::EvalResult One;
  if (const auto *U = dyn_cast<UnaryOperator>(Inc))
    Step1 = U->isIncrementOp() && names(U->getSubExpr(), V);
  else if (const auto *B = dyn_cast<CompoundAssignOperator>(Inc))
    Step1 = B->getOpcode() == BO_AddAssign && names(B->getLHS(), V) &&
            !B->getRHS()->isValueDependent() &&
            B->getRHS()->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1;
  if (!Step1 || changes(For->getBody(), V))
    return std::nullopt;
  CountingLoop L;
  L.Var = V;
  L.Start = Start.Val.getInt().getExtValue();
  L.Bound = Cond->getRHS()->IgnoreParenImpCasts();
  L.Inclusive = Cond->getOpcode() == BO_LE;
  return L;
}

bool runsAtLeastOnce(const Stmt *L, const ASTContext &Ctx) {
  if (isa<DoStmt>(L))
    return true;
  const Expr *Cond = nullptr;
  const VarDecl *Counter = nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(L)) {
    Cond = W->getCond();
  } else if (const auto *For = dyn_cast<ForStmt>(L)) {
    if (!For->getCond())
      return true;
    Cond = For->getCond();
    if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
        Init && Init->isSingleDecl())
      Counter = dyn_cast<VarDecl>(Init->getSingleDecl());
  } else {
    return false; // a range-for: its container may be empty
  }
  if (!Cond || Cond->isValueDependent())
    return false;
  bool Constant = false;
  if (Cond->EvaluateAsBooleanCondition(Constant, Ctx))
    return Constant;
  // The first test of `k < B`, with k's constant initial value.
  const auto *Compare = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  Expr::EvalResult Start, Bound;
  if (!Counter || !Compare || !Compare->isComparisonOp() ||
      !Counter->getType()->isIntegerType() || !Counter->getInit() ||
      Counter->getInit()->isValueDependent() ||
      !names(Compare->getLHS(), Counter) ||
      Compare->getRHS()->isValueDependent() ||
      !Counter->getInit()->EvaluateAsInt(Start, Ctx) ||
      !Compare->getRHS()->EvaluateAsInt(Bound, Ctx))
    return false;
  const llvm::APSInt &A = Start.Val.getInt(), &B = Bound.Val.getInt();
  const int64_t First = A.getExtValue(), Last = B.getExtValue();
  switch (Compare->getOpcode()) {
  case BO_LT: return First < Last;
  case BO_LE: return First <= Last;
  case BO_GT: return First > Last;
  case BO_GE: return First >= Last;
  case BO_NE: return First != Last;
  default: return false;
  }
}

} // namespace ferry
