#include "lint/RaceLint.h"

#include "analyses/CallGraphs.h"
#include "analyses/kernel/WorkItemVariance.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace ferry {

namespace {

/// One buffer element a store writes.
struct StoreTarget {
  const ParmVarDecl *Buffer = nullptr;
  Variance Address = Variance::Item;
};

class RacingWrites {
public:
  RacingWrites(ASTContext &Ctx, const KernelAccessSummary &Kernel,
               RaceLintScope Scope)
      : Ctx(Ctx), Kernel(Kernel), Scope(Scope) {
    for (const ParamAccess &P : Kernel.Buffers)
      if (!writes(P.Inferred))
        ReadOnly.insert(P.Param);
  }

  void run() { analyse(Kernel.Kernel, CallContext(), {}); }

  std::vector<LintFinding> Findings;

private:
  using Chain = std::vector<std::pair<const CallExpr *, const FunctionDecl *>>;

  void analyse(const FunctionDecl *F, CallContext Context, Chain Calls) {
    if (Calls.size() > 8 || !F->hasBody() || F->isDependentContext())
      return;
    WorkItemVariance V(F, std::move(Context), ReadOnly);
    if (V.gaveUp())
      return;
    scan(F->getBody(), V, Calls);
  }

  void scan(const Stmt *S, const WorkItemVariance &V, const Chain &Calls) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (const Expr *Target = storedLValue(E))
        check(E, Target, V, Calls);
      if (const auto *Call = dyn_cast<CallExpr>(E))
        enter(Call, V, Calls);
    }
    for (const Stmt *Child : S->children())
      scan(Child, V, Calls);
  }

  /// The lvalue an assignment, `++` or a struct's trivial `=` stores to.
  static const Expr *storedLValue(const Expr *E) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp())
      return BO->getLHS();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->isIncrementDecrementOp())
      return UO->getSubExpr();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
          M && M->isTrivial())
        return Op->getArg(0);
    return nullptr;
  }

  static StoreTarget target(const Expr *L, const WorkItemVariance &V) {
    L = L->IgnoreParenImpCasts();
    // `out[i].x = v` stores part of element i.
    while (const auto *ME = dyn_cast<MemberExpr>(L)) {
      if (ME->isArrow()) {
        StoreTarget T;
        T.Buffer = V.bufferOf(ME->getBase());
        T.Address = V.of(ME->getBase());
        return T;
      }
      L = ME->getBase()->IgnoreParenImpCasts();
    }
    StoreTarget T;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L)) {
      T.Buffer = V.bufferOf(AS->getBase());
      T.Address = join(V.of(AS->getBase()), V.of(AS->getIdx()));
    } else if (const auto *UO = dyn_cast<UnaryOperator>(L);
               UO && UO->getOpcode() == UO_Deref) {
      T.Buffer = V.bufferOf(UO->getSubExpr());
      T.Address = V.of(UO->getSubExpr());
    }
    return T;
  }

  void check(const Expr *Store, const Expr *LValue, const WorkItemVariance &V,
             const Chain &Calls) {
    StoreTarget T = target(LValue, V);
    if (!T.Buffer)
      return;
    Variance Who = join(T.Address, V.control(Store));
    if (Who == Variance::Item) {
      if (Calls.empty() && V.control(Store) == Variance::Uniform)
        checkCollision(Store, LValue, T, V);
      return;
    }
    if (!Scope.ManyItems)
      return;
    if (Who == Variance::Group && !Scope.ManyItemsPerGroup)
      return;
    if (!Reported.insert(Store).second)
      return;
    std::string Text = lintExpressionText(Ctx, Store);
    std::string Buffer = T.Buffer->getNameAsString();
    LintFinding F;
    F.Kind = LintFinding::Check::RacingWrite;
    F.Loc = Store->getExprLoc();
    if (const auto *BO = dyn_cast<BinaryOperator>(Store))
      F.Loc = BO->getLHS()->getBeginLoc();
    if (Who == Variance::Uniform)
      F.Message = "data race: every work-item of the dispatch writes the "
                  "same element of '" +
                  Buffer + "' in `" + Text +
                  "` (its index does not depend on the work-item's id, and "
                  "no condition on the id guards it); guard it with "
                  "`if (kc.x == 0)` or use a ferry::atomic";
    else
      F.Message = "data race: every work-item of a work-group writes the "
                  "same element of '" +
                  Buffer + "' in `" + Text +
                  "` (its index depends only on the group's id); guard it "
                  "with `if (kc.localX == 0)` or use a ferry::atomic";
    // The path from the kernel to a helper's store.
    for (auto It = Calls.rbegin(); It != Calls.rend(); ++It) {
      const FunctionDecl *Caller =
          It + 1 == Calls.rend() ? Kernel.Kernel : (It + 1)->second;
      F.Notes.push_back(
          {It->first->getBeginLoc(),
           "in '" + It->second->getNameAsString() + "', called from " +
               (Caller == Kernel.Kernel ? "kernel '" : "'") +
               Caller->getNameAsString() + "' here"});
    }
    Findings.push_back(std::move(F));
  }

  /// `out[i] = ...` made by every work-item of the kernel, i an affine
  /// index of the global ids (AffineIndex) whose coefficients let two
  /// work-items of some dispatch reach one element: `out[kc.x]` over a
  /// range of two dimensions, `out[kc.y * 16 + kc.x]` over more than 16
  /// columns.
  void checkCollision(const Expr *Store, const Expr *LValue,
                      const StoreTarget &T, const WorkItemVariance &V) {
    const auto *AS =
        dyn_cast<ArraySubscriptExpr>(LValue->IgnoreParenImpCasts());
    if (!AS || V.of(AS->getBase()) != Variance::Uniform)
      return;
    AffineIndex Index = affineIndex(AS->getIdx(), V.function(), V);
    const GroupShape *Witness = nullptr;
    for (const GroupShape &Global : Scope.GlobalShapes)
      if (!Witness && distinctItemsCollide(Index, Global))
        Witness = &Global;
    if (!Witness || !Reported.insert(Store).second)
      return;
    LintFinding F;
    F.Kind = LintFinding::Check::RacingWrite;
    F.Loc = AS->getBeginLoc();
    std::string Size = std::to_string((*Witness)[0]);
    int Dims = (*Witness)[2] > 1 ? 3 : (*Witness)[1] > 1 ? 2 : 1;
    for (int D = 1; D < Dims; ++D)
      Size += " x " + std::to_string((*Witness)[D]);
    F.Message = "data race: two work-items of the dispatch write the same "
                "element of '" +
                T.Buffer->getNameAsString() + "' in `" +
                lintExpressionText(Ctx, Store) + "` (its index, " +
                affineText(Index) + ", maps two work-items of a " + Size +
                " range onto one element)";
    Findings.push_back(std::move(F));
  }

  /// A helper with a body: analysed with what this call hands it.
  void enter(const CallExpr *Call, const WorkItemVariance &V,
             const Chain &Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMethodDecl>(Callee))
      return;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->hasBody() || isRuntimeFunction(Def) ||
        Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
      return;
    CallContext Context;
    Context.Control = V.control(Call);
    Context.Params.resize(Def->getNumParams());
    bool HandsBuffer = false;
    for (unsigned I = 0; I < Def->getNumParams() && I < Call->getNumArgs();
         ++I) {
      const Expr *Arg = Call->getArg(I);
      Context.Params[I].Value = V.of(Arg);
      if (Def->getParamDecl(I)->getType()->isPointerType()) {
        Context.Params[I].Buffer = V.bufferOf(Arg);
        HandsBuffer = HandsBuffer || Context.Params[I].Buffer;
      }
    }
    if (!HandsBuffer || Def == Kernel.Kernel)
      return;
    for (const auto &[Site, Callee] : Calls)
      if (Callee == Def)
        return; // recursion: the emitter reports it
    Chain Longer = Calls;
    Longer.emplace_back(Call, Def);
    analyse(Def, std::move(Context), std::move(Longer));
  }

  ASTContext &Ctx;
  const KernelAccessSummary &Kernel;
  RaceLintScope Scope;
  std::set<const ParmVarDecl *> ReadOnly;
  std::set<const Expr *> Reported;
};

} // namespace

std::vector<LintFinding> findRacingWrites(ASTContext &Ctx,
                                          const KernelAccessSummary &Kernel,
                                          RaceLintScope Scope) {
  RacingWrites W(Ctx, Kernel, Scope);
  W.run();
  return std::move(W.Findings);
}

} // namespace ferry
