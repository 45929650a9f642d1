#include "analyses/lifetime/ExitLiveness.h"

#include "analyses/paths/ObjectTable.h"
#include "analyses/lifetime/ComputeSites.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

using namespace clang;

namespace ferry {

namespace {

/// Whether a use of a buffer, of a pointer to one, or of its elements is
/// over when the statement holding it is: nothing it hands out (a reference,
/// a pointer, the buffer's address) is kept where it could be used later.
/// Calls into functions whose bodies Ferry sees are followed a few levels.
class InPlaceUses {
public:
  explicit InPlaceUses(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()) {}
  /// A function defined in another Ferry source: what its summary says.
  KeepsNothingElsewhere Elsewhere;

  /// `E` is an lvalue of buffer type.
  bool buffer(const Expr *E, int Depth) {
    auto [Self, P] = up(E);
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P))
      return Op->getOperator() == OO_Subscript && Op->getArg(0) == Self &&
             element(Op, Depth);
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P))
      return member(ME, Depth);
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
      return UO->getOpcode() == UO_AddrOf && bufferPointer(UO, Depth);
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
      return isDispatchCall(Call) || argument(Call, Self, Depth);
    return false;
  }

  /// Every use of `D` (a buffer, a reference or pointer to one, or a raw
  /// element pointer) in `Body`.
  bool variable(const ValueDecl *D, const Stmt *Body, int Depth) {
    if (Depth > MaxDepth || !Body)
      return false;
    struct Refs : RecursiveASTVisitor<Refs> {
      const ValueDecl *D;
      std::vector<const DeclRefExpr *> Found;
      bool InLambda = false;
      bool TraverseLambdaExpr(LambdaExpr *L) {
        bool Saved = InLambda;
        InLambda = true;
        RecursiveASTVisitor::TraverseLambdaExpr(L);
        InLambda = Saved;
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (R->getDecl() == D)
          Found.push_back(InLambda ? nullptr : R);
        return true;
      }
    } Find;
    Find.D = D;
    Find.TraverseStmt(const_cast<Stmt *>(Body));
    QualType T = D->getType();
    for (const DeclRefExpr *R : Find.Found) {
      if (!R) // a lambda may run after the statement that made it
        return false;
      bool Ok;
      if (T->isPointerType()) {
        auto [Self, P] = up(R);
        const auto *Load = dyn_cast_or_null<ImplicitCastExpr>(P);
        if (!Load || Load->getCastKind() != CK_LValueToRValue)
          return false; // the pointer itself changed, or its address taken
        Ok = isBufferType(T->getPointeeType()) ? bufferPointer(Load, Depth + 1)
                                               : rawPointer(Load, Depth + 1);
      } else {
        Ok = buffer(R, Depth + 1);
      }
      if (!Ok)
        return false;
    }
    return true;
  }

private:
  static constexpr int MaxDepth = 6;

  /// E with the parentheses and no-op casts around it, and what holds that.
  std::pair<const Expr *, const Stmt *> up(const Expr *E) {
    for (;;) {
      const Stmt *P = parent(E);
      const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
      if (isa_and_nonnull<ParenExpr>(P) ||
          (Cast && (Cast->getCastKind() == CK_NoOp ||
                    Cast->getCastKind() == CK_ArrayToPointerDecay))) {
        E = cast<Expr>(P);
        continue;
      }
      return {E, P};
    }
  }
  const Stmt *parent(const Stmt *S) {
    for (const DynTypedNode &P : Ctx.getParents(*S))
      if (const auto *PS = P.get<Stmt>())
        return PS;
    return nullptr;
  }

  /// `b.size()`, `p->data()`: a member of the buffer used.
  bool member(const MemberExpr *ME, int Depth) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(parent(ME));
    if (!MC || MC->getCallee()->IgnoreParens() != ME)
      return false;
    if (isBufferElementAccessor(MC))
      return rawPointer(MC, Depth);
    const auto *M = MC->getMethodDecl();
    return M && M->getIdentifier() &&
           (M->getName() == "size" || M->getName() == "bytes" ||
            M->getName() == "empty");
  }

  /// `&b`, `p`: a prvalue pointer to a buffer.
  bool bufferPointer(const Expr *E, int Depth) {
    auto [Self, P] = up(E);
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
      return UO->getOpcode() == UO_Deref && buffer(UO, Depth);
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P))
      return ME->isArrow() && member(ME, Depth);
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
      return BO->isEqualityOp(); // `p != &tmp` reads nothing
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
      return argument(Call, Self, Depth);
    return false;
  }

  /// An element, as an lvalue (`b[i]`, `p[i]`, `*it`).
  bool element(const Expr *E, int Depth) {
    auto [Self, P] = up(E);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P))
      return Cast->getCastKind() == CK_LValueToRValue;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
      return BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Self;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
      return UO->isIncrementDecrementOp();
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P))
      return !ME->isArrow() && element(ME, Depth);
    if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(P))
      return Construct->getConstructor()->isCopyConstructor();
    return false;
  }

  /// `b.data()`, `b.begin() + k`, a `T *` parameter: a prvalue pointer
  /// into a buffer's elements.
  bool rawPointer(const Expr *E, int Depth) {
    auto [Self, P] = up(E);
    if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P))
      return ASE->getBase()->IgnoreParenImpCasts() == Self->IgnoreParenImpCasts() &&
             element(ASE, Depth);
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
      return UO->getOpcode() == UO_Deref && element(UO, Depth);
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
      if (BO->isComparisonOp())
        return true;
      if (BO->isAdditiveOp())
        return !BO->getType()->isPointerType() || rawPointer(BO, Depth);
      return false;
    }
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P))
      return argument(Call, Self, Depth);
    return false;
  }

  /// `Arg` passed to `Call`: a library call that keeps nothing, or a
  /// function Ferry sees whose parameter keeps nothing.
  bool argument(const CallExpr *Call, const Expr *Arg, int Depth) {
    if (isa<CXXOperatorCallExpr>(Call))
      return false;
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F)
      return false;
    unsigned Index = 0;
    while (Index < Call->getNumArgs() && Call->getArg(Index) != Arg)
      ++Index;
    if (Index == Call->getNumArgs())
      return false; // the callee or the object of a member call
    if (SM.isInSystemHeader(F->getLocation()) || F->getBuiltinID()) {
      // Algorithms that only walk the ranges they are given (std::copy,
      // std::fill, memcpy), the pointer passed as one of those ranges'
      // ends: they hand back at most a pointer into the same range, which
      // must then be dropped. A pointer passed as a value (std::iota's
      // start, std::fill's value) may be kept in the range.
      if (!Arg->getType()->isPointerType() || !iteratorArgument(F, Index))
        return false;
      QualType R = F->getReturnType();
      if (R->isVoidType() || R->isArithmeticType() || R->isBooleanType())
        return true;
      const Stmt *P = parent(Call);
      if (const auto *Full = dyn_cast_or_null<ExprWithCleanups>(P))
        P = parent(Full);
      return isa_and_nonnull<CompoundStmt>(P);
    }
    // A virtual call may run an override Ferry does not look at.
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual())
      return false;
    const FunctionDecl *Def = F->getDefinition();
    if (!Def && Elsewhere && Index < F->getNumParams() && !F->isVariadic())
      return Elsewhere(F, Index);
    if (!Def || Index >= Def->getNumParams() || Def->isVariadic())
      return false;
    const ParmVarDecl *Param = Def->getParamDecl(Index);
    QualType T = Param->getType();
    if (T->isReferenceType() && !isBufferType(T.getNonReferenceType()))
      return false;
    if (!T->isReferenceType() && !T->isPointerType())
      return false;
    return variable(Param, Def->getBody(), Depth);
  }

  /// Whether argument `Index` of the library function F is one end of a
  /// range it walks and keeps nothing of.
  static bool iteratorArgument(const FunctionDecl *F, unsigned Index) {
    if (!F->getIdentifier())
      return false;
    static const std::map<llvm::StringRef, std::set<unsigned>> Ranges = {
        {"copy", {0, 1, 2}},     {"copy_n", {0, 2}},   {"copy_backward", {0, 1, 2}},
        {"move", {0, 1, 2}},     {"fill", {0, 1}},     {"fill_n", {0}},
        {"iota", {0, 1}},        {"generate", {0, 1}}, {"accumulate", {0, 1}},
        {"reduce", {0, 1}},      {"sort", {0, 1}},     {"reverse", {0, 1}},
        {"transform", {0, 1, 2, 3}}, {"equal", {0, 1, 2}},
        {"count", {0, 1}},       {"memcpy", {0, 1}},   {"memmove", {0, 1}},
        {"memset", {0}},         {"memcmp", {0, 1}}};
    auto It = Ranges.find(F->getName());
    // std::move(x) of one argument is the cast, no algorithm.
    if (It == Ranges.end() ||
        (F->getName() == "move" && F->getNumParams() == 1))
      return false;
    return It->second.count(Index) != 0;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
};

/// A call of an entry compute function from a compute lambda.
struct EntryCall {
  const CallExpr *Call = nullptr;
  const ComputeSite *Site = nullptr;
};

class EntryCallFinder : public RecursiveASTVisitor<EntryCallFinder> {
public:
  EntryCallFinder(const std::set<const FunctionDecl *> &Entries,
                  const std::vector<ComputeSite> &Sites)
      : Entries(Entries) {
    for (const ComputeSite &S : Sites)
      ComputeArguments[S.Lambda] = &S;
  }

  std::map<const FunctionDecl *, std::vector<EntryCall>> Calls;
  /// Entries used some other way: their callers cannot be followed.
  std::set<const FunctionDecl *> Unfollowed;

  bool TraverseLambdaExpr(LambdaExpr *L) {
    const ComputeSite *Saved = InLambda;
    auto It = ComputeArguments.find(L);
    InLambda = It == ComputeArguments.end() ? nullptr : It->second;
    RecursiveASTVisitor::TraverseLambdaExpr(L);
    InLambda = Saved;
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (Call->getDirectCallee())
      Callee[Call->getCallee()->IgnoreParenImpCasts()] = Call;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
    if (!F)
      return true;
    F = F->getDefinition() ? F->getDefinition() : F;
    if (!Entries.count(F))
      return true;
    auto It = Callee.find(Ref);
    if (It != Callee.end() && InLambda)
      Calls[F].push_back({It->second, InLambda});
    else
      Unfollowed.insert(F);
    return true;
  }

private:
  const std::set<const FunctionDecl *> &Entries;
  const ComputeSite *InLambda = nullptr;
  std::map<const Expr *, const CallExpr *> Callee;
  std::map<const LambdaExpr *, const ComputeSite *> ComputeArguments;
};

/// What the function around a compute looks like: its loops and lambdas,
/// where each of its local buffers is named, and whether it jumps.
struct EnclosingFunction : RecursiveASTVisitor<EnclosingFunction> {
  /// Each loop, with the statement whose variables are new each round.
  std::vector<std::pair<const Stmt *, const Stmt *>> Loops;
  std::vector<const LambdaExpr *> LambdaStack;
  /// A use of a name: in which lambda (null: in none), and whether that
  /// lambda sits inside another.
  struct Use {
    const DeclRefExpr *Ref;
    const LambdaExpr *Lambda;
    bool Nested;
  };
  std::map<const VarDecl *, std::vector<Use>> Refs;
  std::vector<const LambdaExpr *> Lambdas;
  bool Jumps = false;

  bool TraverseLambdaExpr(LambdaExpr *L) {
    Lambdas.push_back(L);
    LambdaStack.push_back(L);
    RecursiveASTVisitor::TraverseLambdaExpr(L);
    LambdaStack.pop_back();
    return true;
  }
  bool VisitForStmt(ForStmt *S) { return loop(S, S->getBody()); }
  bool VisitWhileStmt(WhileStmt *S) { return loop(S, S->getBody()); }
  bool VisitDoStmt(DoStmt *S) { return loop(S, S->getBody()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { return loop(S, S->getBody()); }
  bool VisitGotoStmt(GotoStmt *) { return Jumps = true; }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return Jumps = true; }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      Refs[V].push_back({R, LambdaStack.empty() ? nullptr : LambdaStack.back(),
                         LambdaStack.size() > 1});
    return true;
  }

private:
  bool loop(const Stmt *S, const Stmt *Body) {
    Loops.emplace_back(S, Body);
    return true;
  }
};

class DeadBuffers {
public:
  explicit DeadBuffers(ASTContext &Ctx)
      : SM(Ctx.getSourceManager()), Uses(Ctx) {}

  /// Whether the buffer `Arg` names at `C` is a local of the function
  /// around the compute that nothing uses once the compute returns.
  bool deadAfter(const EntryCall &C, const Expr *Arg) {
    const Expr *E = Arg->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    return Ref && deadAfter(dyn_cast<VarDecl>(Ref->getDecl()), C.Call, *C.Site);
  }

  /// Whether `V` is a local of the function around the compute `Site` that
  /// nothing uses once `Last` (a statement of the compute lambda, or the
  /// compute itself) has run.
  bool deadAfter(const VarDecl *V, const Stmt *Last, const ComputeSite &Site) {
    const FunctionDecl *Around = Site.Enclosing;
    if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        !isBufferType(V->getType()) || V->getParentFunctionOrMethod() != Around)
      return false;
    const EnclosingFunction &Body = enclosing(Around);
    if (Body.Jumps)
      return false;
    // In a macro, which use comes first is not in the source to see.
    if (Last->getBeginLoc().isMacroID() || Last->getEndLoc().isMacroID() ||
        Site.Compute->getBeginLoc().isMacroID())
      return false;
    // A compute inside another lambda runs whenever that one does.
    for (const LambdaExpr *L : Body.Lambdas)
      if (contains(L, Site.Compute))
        return false;
    // Run again while the buffer lives: a later run needs this one's data.
    // A buffer declared in the loop's body is a new one each round; one in
    // a for's init lives through all of them.
    for (auto [Loop, LoopBody] : Body.Loops)
      if (contains(Loop, Last) && !(LoopBody && contains(LoopBody, V)))
        return false;
    auto It = Body.Refs.find(V);
    if (It == Body.Refs.end())
      return false;
    SourceLocation LastEnd = SM.getExpansionLoc(Last->getEndLoc());
    for (const EnclosingFunction::Use &U : It->second) {
      const DeclRefExpr *R = U.Ref;
      const LambdaExpr *Lambda = U.Lambda;
      if (R->getBeginLoc().isMacroID() &&
          !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(R->getBeginLoc()),
                                        SM.getExpansionLoc(Last->getBeginLoc())))
        return false;
      if (SM.isBeforeInTranslationUnit(LastEnd, SM.getExpansionLoc(R->getBeginLoc())))
        return false; // named after it
      if (U.Nested)
        return false;
      // A lambda that is not an earlier compute's may run at any time.
      if (Lambda && Lambda != Site.Lambda &&
          !(isComputeLambda(Lambda) &&
            SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Lambda->getEndLoc()),
                                         SM.getExpansionLoc(Last->getBeginLoc()))))
        return false;
      if (!Uses.buffer(R, 0))
        return false;
    }
    return true;
  }

  std::set<const LambdaExpr *> ComputeLambdas;

private:
  bool isComputeLambda(const LambdaExpr *L) const {
    return ComputeLambdas.count(L) != 0;
  }
  bool contains(const Stmt *Outer, const Stmt *Inner) const {
    return contains(Outer->getSourceRange(), Inner->getBeginLoc());
  }
  bool contains(const LambdaExpr *Outer, const Stmt *Inner) const {
    return contains(Outer->getSourceRange(), Inner->getBeginLoc());
  }
  bool contains(const Stmt *Outer, const Decl *Inner) const {
    return contains(Outer->getSourceRange(), Inner->getLocation());
  }
  bool contains(SourceRange Outer, SourceLocation L) const {
    SourceLocation B = SM.getExpansionLoc(Outer.getBegin()),
                   E = SM.getExpansionLoc(Outer.getEnd());
    L = SM.getExpansionLoc(L);
    return !SM.isBeforeInTranslationUnit(L, B) &&
           !SM.isBeforeInTranslationUnit(E, L);
  }
  const EnclosingFunction &enclosing(const FunctionDecl *F) {
    auto [It, New] = Functions.try_emplace(F);
    if (New)
      It->second.TraverseStmt(F->getBody());
    return It->second;
  }

  const SourceManager &SM;

public:
  InPlaceUses Uses;

private:
  std::map<const FunctionDecl *, EnclosingFunction> Functions;
};

} // namespace

bool parameterKeepsNothing(ASTContext &Ctx, const FunctionDecl *F,
                           unsigned Index) {
  if (!F->hasBody() || Index >= F->getNumParams() || F->isVariadic())
    return false;
  const ParmVarDecl *Param = F->getParamDecl(Index);
  QualType T = Param->getType();
  if ((T->isReferenceType() && !isBufferType(T.getNonReferenceType())) ||
      (!T->isReferenceType() && !T->isPointerType()))
    return false;
  return InPlaceUses(Ctx).variable(Param, F->getBody(), 1);
}

std::map<const FunctionDecl *, std::set<const ValueDecl *>>
buffersDeadAfterCompute(ASTContext &Ctx,
                        const std::set<const FunctionDecl *> &Entries,
                        const KeepsNothingElsewhere &Elsewhere) {
  std::vector<ComputeSite> Sites = findComputeSites(Ctx);
  EntryCallFinder Find(Entries, Sites);
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());
  DeadBuffers Dead(Ctx);
  Dead.Uses.Elsewhere = Elsewhere;
  for (const ComputeSite &L : Sites)
    Dead.ComputeLambdas.insert(L.Lambda);

  std::map<const FunctionDecl *, std::set<const ValueDecl *>> Result;
  // A planned compute lambda: the buffers it captures, after its compute.
  for (const ComputeSite &L : Sites) {
    const CXXMethodDecl *Op = L.Lambda->getCallOperator();
    if (!Entries.count(Op))
      continue;
    std::set<const ValueDecl *> &Captured = Result[Op];
    for (const LambdaCapture &C : L.Lambda->captures())
      if (const auto *V = C.capturesVariable()
                              ? dyn_cast<VarDecl>(C.getCapturedVar())
                              : nullptr;
          V && refersToBuffer(V->getType()) && Dead.deadAfter(V, L.Compute, L))
        Captured.insert(V);
  }
  for (const auto &[F, Calls] : Find.Calls) {
    if (Find.Unfollowed.count(F))
      continue;
    std::set<const ValueDecl *> &Params = Result[F];
    for (unsigned I = 0; I < F->getNumParams(); ++I) {
      const ParmVarDecl *P = F->getParamDecl(I);
      if (!refersToBuffer(P->getType()) || isBufferType(P->getType()))
        continue;
      bool AllDead = true;
      for (const EntryCall &C : Calls)
        AllDead = AllDead && I < C.Call->getNumArgs() &&
                  Dead.deadAfter(C, C.Call->getArg(I));
      if (AllDead)
        Params.insert(P);
    }
  }
  return Result;
}

} // namespace ferry
