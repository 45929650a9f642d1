// Counted host writes (see CountedHostWrites.h): the patterns that prove a
// host store writes the first n elements of a buffer, n known only at run
// time, and the checks that nothing else in the loop touches the buffer.

#include "analyses/host/CountedHostWrites.h"

#include "analyses/host/ElementRanges.h"
#include "analyses/host/HostAccessInternal.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace ferry {

/// `for (int i = 0; i < n; ++i) { …; b[i] = v; … }`: a store, on the
/// body's top level, at the counter of a counting loop from 0 whose body
/// never leaves early and never changes the variables of `n` (which has
/// no side effects). Such a store writes the first max(n, 0) elements of
/// b, which the runtime compares with b's size (as for std::copy_n).
/// Returns the stores' subscript expressions.
std::vector<const Expr *>
CountedHostWrites::countedStores(const ForStmt *For) {
  std::vector<const Expr *> Found;
  std::optional<CountingLoop> L = countingLoop(For, /*AllowInclusive=*/true);
  if (!L || L->Start != 0 || L->Bound->HasSideEffects(Ctx()) ||
      mayExitEarly(For->getBody()) || boundChanges(L->Bound, For->getBody()))
    return Found;
  for (const Stmt *T : topLevel(For->getBody()))
    if (const CXXOperatorCallExpr *Op = elementStore(T, L->Var)) {
      CountedStores[Op] = {For, *L, std::nullopt};
      Found.push_back(Op);
    }
  if (const Expr *Op = runningIndexStore(For, *L))
    Found.push_back(Op);
  return Found;
}

std::vector<const Stmt *> CountedHostWrites::topLevel(const Stmt *Body) {
  std::vector<const Stmt *> Top;
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body))
    Top.assign(CS->body_begin(), CS->body_end());
  else if (Body)
    Top.push_back(Body);
  return Top;
}

/// `b[v] = …` as a statement, b a buffer: the subscript.
const CXXOperatorCallExpr *CountedHostWrites::elementStore(const Stmt *T,
                                                            const VarDecl *V) {
  const auto *Assign = dyn_cast<BinaryOperator>(T);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return nullptr;
  const auto *Op =
      dyn_cast<CXXOperatorCallExpr>(Assign->getLHS()->IgnoreParens());
  const auto *Index =
      Op ? dyn_cast<DeclRefExpr>(Op->getArg(1)->IgnoreParenImpCasts())
         : nullptr;
  return Op && Op->getOperator() == OO_Subscript &&
                 isBufferType(Op->getArg(0)->getType()) && Index &&
                 Index->getDecl() == V
             ? Op
             : nullptr;
}

/// `m = 0; for (k = 0; k < K; ++k) for (j = 0; j < J; ++j) { …; b[m] =
/// …; …; m++; }` (OMPDart backprop's flattening of a 2-D array): the
/// outer loop holds only the inner one, whose bound does not depend on
/// k; m is set to 0 by the statement just before and stepped once per
/// inner iteration, after the store, by its top level, and nowhere else.
/// The store writes the first trips(K) x trips(J) elements.
const Expr *CountedHostWrites::runningIndexStore(const ForStmt *Outer,
                                                 const CountingLoop &L) {
  std::vector<const Stmt *> OuterTop = topLevel(Outer->getBody());
  const auto *Inner =
      OuterTop.size() == 1 ? dyn_cast<ForStmt>(OuterTop[0]) : nullptr;
  std::optional<CountingLoop> IL =
      Inner ? countingLoop(Inner, /*AllowInclusive=*/true) : std::nullopt;
  if (!IL || IL->Start != 0 || IL->Bound->HasSideEffects(Ctx()) ||
      boundChanges(IL->Bound, Outer->getBody()) || names(IL->Bound, L.Var) ||
      mayExitEarly(Inner->getBody()))
    return nullptr;
  std::vector<const Stmt *> Top = topLevel(Inner->getBody());
  const CXXOperatorCallExpr *Store = nullptr;
  const VarDecl *M = nullptr;
  size_t StoreAt = 0;
  for (size_t I = 0; I < Top.size() && !Store; ++I) {
    const auto *Assign = dyn_cast<BinaryOperator>(Top[I]);
    const auto *Op = Assign && Assign->getOpcode() == BO_Assign
                         ? dyn_cast<CXXOperatorCallExpr>(
                               Assign->getLHS()->IgnoreParens())
                         : nullptr;
    const auto *Index =
        Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2
            ? dyn_cast<DeclRefExpr>(Op->getArg(1)->IgnoreParenImpCasts())
            : nullptr;
    const auto *V = Index ? dyn_cast<VarDecl>(Index->getDecl()) : nullptr;
    // An index that can count past what it holds would wrap: a signed
    // one of 32 bits at least (its overflow is no valid program), an
    // unsigned one of 64.
    QualType IT = V ? V->getType() : QualType();
    bool Wide = V && IT->isIntegerType() &&
                Ctx().getTypeSize(IT) >=
                    (IT->isSignedIntegerType() ? 32u : 64u);
    if (Wide && V->hasLocalStorage() && !reachableByCalls(V, Table.function()) &&
        isBufferType(Op->getArg(0)->getType())) {
      Store = Op;
      M = V;
      StoreAt = I;
    }
  }
  if (!Store || M == L.Var || M == IL->Var)
    return nullptr;
  // Stepped exactly once, after the store, and changed nowhere else.
  size_t Steps = 0;
  for (size_t I = 0; I < Top.size(); ++I) {
    if (isStepOf(Top[I], M)) {
      if (I < StoreAt)
        return nullptr;
      ++Steps;
    } else if (changes(Top[I], M)) {
      return nullptr;
    }
  }
  if (Steps != 1 || changes(Outer->getInit(), M) ||
      changes(Outer->getCond(), M) || changes(Outer->getInc(), M) ||
      changes(Inner->getInit(), M) || changes(Inner->getCond(), M) ||
      changes(Inner->getInc(), M) || !setToZeroJustBefore(Outer, M))
    return nullptr;
  CountedStores[Store] = {Outer, L, *IL};
  return Store;
}

bool CountedHostWrites::names(const Stmt *S, const VarDecl *V) {
  if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == V)
    return true;
  for (const Stmt *Child : S->children())
    if (Child && names(Child, V))
      return true;
  return false;
}

/// `m++`, `++m` or `m += 1` as a statement.
bool CountedHostWrites::isStepOf(const Stmt *S, const VarDecl *M) const {
  auto Names = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == M;
  };
  if (const auto *U = dyn_cast<UnaryOperator>(S))
    return U->isIncrementOp() && Names(U->getSubExpr());
  Expr::EvalResult One;
  if (const auto *B = dyn_cast<CompoundAssignOperator>(S))
    return B->getOpcode() == BO_AddAssign && Names(B->getLHS()) &&
           !B->getRHS()->isValueDependent() &&
           B->getRHS()->EvaluateAsInt(One, Ctx()) && One.Val.getInt() == 1;
  return false;
}

/// The statement before `Loop` in its block is `m = 0;` or `int m = 0;`.
bool CountedHostWrites::setToZeroJustBefore(const Stmt *Loop,
                                            const VarDecl *M) const {
  auto Parents = Ctx().getParents(*Loop);
  const auto *Block =
      Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
  if (!Block)
    return false;
  const Stmt *Before = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == Loop)
      break;
    Before = S;
  }
  const Expr *Zero = nullptr;
  if (const auto *A = dyn_cast_or_null<BinaryOperator>(Before);
      A && A->getOpcode() == BO_Assign) {
    const auto *R = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts());
    if (R && R->getDecl() == M)
      Zero = A->getRHS();
  } else if (const auto *D = dyn_cast_or_null<DeclStmt>(Before);
             D && D->isSingleDecl() && D->getSingleDecl() == M) {
    Zero = M->getInit();
  }
  Expr::EvalResult Value;
  return Zero && !Zero->isValueDependent() &&
         Zero->EvaluateAsInt(Value, Ctx()) && Value.Val.getInt() == 0;
}

/// Whether S may change a variable that E names: assigns it, or, for one
/// a call could reach (a global, a reference, a local whose address the
/// function hands out), calls anything.
bool CountedHostWrites::boundChanges(const Stmt *E, const Stmt *S) const {
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
        V && (changes(S, V) || (reachableByCalls(V, Table.function()) && callsAnything(S))))
      return true;
  for (const Stmt *Child : E->children())
    if (Child && boundChanges(Child, S))
      return true;
  return false;
}

/// A counted store covers only if nothing else in the loop touches its
/// buffer: `b[i] = b[i + 1]` reads elements the count would claim.
void CountedHostWrites::keepCountsOfSoleAccesses(
    std::vector<HostEvent> &Events, size_t First,
    const std::vector<const Expr *> &Counted) {
  for (const Expr *Store : Counted) {
    CountedStores.erase(Store);
    HostEvent *W = nullptr;
    for (size_t K = First; K < Events.size(); ++K)
      if (Events[K].Site == Store && Events[K].CountingLoop)
        W = &Events[K];
    if (!W)
      continue;
    bool Alone = W->Targets.single() && !W->Escapes;
    std::set<ObjectId> Same = Table.withAliases(W->Targets.Ids);
    for (size_t K = First; K < Events.size() && Alone; ++K) {
      if (&Events[K] == W)
        continue;
      for (ObjectId Id : Events[K].Targets.Ids)
        if (Same.count(Id))
          Alone = false;
    }
    if (!Alone) {
      W->WrittenCount = nullptr;
      W->CountingLoop = nullptr;
    }
  }
}

void CountedHostWrites::countElementStore(HostEvent &W,
                                          const CXXOperatorCallExpr *Op) const {
  Expr::EvalResult Index;
  if (auto Loop = CountedStores.find(Op); Loop != CountedStores.end()) {
    const CountedStore &C = Loop->second;
    W.WrittenCount = C.Outer.Bound;
    W.WrittenCountInclusive = C.Outer.Inclusive;
    if (C.Inner) {
      W.WrittenCountInner = C.Inner->Bound;
      W.WrittenCountInnerInclusive = C.Inner->Inclusive;
    }
    W.CountingLoop = C.Loop;
  } else if (!Op->getArg(1)->isValueDependent() &&
             Op->getArg(1)->EvaluateAsInt(Index, Ctx()) &&
             Index.Val.getInt() == 0) {
    W.WrittenCountConst = 1;
  }
}

/// `v.begin(), v.end()` (or `p->...` through a pointer) of one named
/// container with a size() (a std::vector, a Buffer): all of it,
/// `v.size()` elements.
bool CountedHostWrites::wholeContainer(const CXXMemberCallExpr *First,
                                       const CXXMemberCallExpr *Last) {
  if (!First || !Last || !First->getMethodDecl() || !Last->getMethodDecl() ||
      !First->getMethodDecl()->getIdentifier() ||
      !Last->getMethodDecl()->getIdentifier())
    return false;
  llvm::StringRef B = First->getMethodDecl()->getName();
  llvm::StringRef E = Last->getMethodDecl()->getName();
  if (!((B == "begin" && E == "end") || (B == "cbegin" && E == "cend")))
    return false;
  const auto *A = dyn_cast<DeclRefExpr>(
      First->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *Z = dyn_cast<DeclRefExpr>(
      Last->getImplicitObjectArgument()->IgnoreParenImpCasts());
  if (!A || !Z || A->getDecl() != Z->getDecl())
    return false;
  QualType T = A->getType();
  if (T->isPointerType()) // `p->begin(), p->end()`: p->size() elements
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getIdentifier() && M->getName() == "size" &&
        M->getNumParams() == 0)
      return true;
  return false;
}

/// `n` of a pointer range `p, p + n` (p the same expression twice, without
/// side effects), or null.
const Expr *CountedHostWrites::pointerRangeLength(const Expr *First,
                                                  const Expr *Last) const {
  const auto *Add = dyn_cast<BinaryOperator>(Last->IgnoreParenImpCasts());
  if (!First->getType()->isPointerType() || !Add ||
      Add->getOpcode() != BO_Add || First->HasSideEffects(Ctx()))
    return nullptr;
  // Both as loaded (prvalues), which is what the comparison expects.
  if (Expr::isSameComparisonOperand(First, Add->getLHS()) &&
      Add->getRHS()->getType()->isIntegerType())
    return Add->getRHS();
  return nullptr;
}

CountedHostWrites::AlgorithmCount
CountedHostWrites::algorithmCount(const CallExpr *Call, llvm::StringRef Name,
                                  const PointsTo &Facts) const {
  unsigned NumArgs = Call->getNumArgs();
  const Expr *CountExpr = nullptr, *CountOf = nullptr;
  unsigned CountedArg = NumArgs;

  if ((Name == "copy" || Name == "move") && NumArgs == 3) {
    const auto *First =
        dyn_cast<CXXMemberCallExpr>(Call->getArg(0)->IgnoreParenImpCasts());
    const auto *Last =
        dyn_cast<CXXMemberCallExpr>(Call->getArg(1)->IgnoreParenImpCasts());
    if ((isBufferMethod(First, "begin") && isBufferMethod(Last, "end") &&
         Table.resolve(First->getImplicitObjectArgument(), Facts).Ids ==
             Table.resolve(Last->getImplicitObjectArgument(), Facts).Ids) ||
        wholeContainer(First, Last)) {
      CountOf = First->getImplicitObjectArgument();
      CountedArg = 2;
    } else if (const Expr *N = pointerRangeLength(Call->getArg(0),
                                                  Call->getArg(1))) {
      // `std::copy(p, p + n, b.begin())`: n elements.
      CountExpr = N;
      CountedArg = 2;
    }
  } else if ((Name == "copy_n" && NumArgs == 3) ||
             (Name == "fill_n" && NumArgs == 3)) {
    CountExpr = Call->getArg(1);
    CountedArg = Name == "copy_n" ? 2 : 0;
  }
  if (CountedArg < NumArgs) {
    const auto *Dest = dyn_cast<CXXMemberCallExpr>(
        Call->getArg(CountedArg)->IgnoreParenImpCasts());
    if (!isBufferMethod(Dest, "begin"))
      CountExpr = CountOf = nullptr, CountedArg = NumArgs;
  }
  return {CountExpr, CountOf, CountedArg};
}

ASTContext &CountedHostWrites::Ctx() const {
  return Table.function()->getASTContext();
}

} // namespace ferry
