#include "lint/DispatchLint.h"

#include "analyses/kernel/DispatchRange.h"
#include "analyses/kernel/WorkGroupUse.h"
#include "model/FerryTypes.h"
#include "parse/Annotations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {

namespace {

const Expr *bare(const Expr *E) {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else
      return E;
  }
}

bool sameObject(ASTContext &Ctx, const Expr *A, const Expr *B) {
  llvm::FoldingSetNodeID IA, IB;
  bare(A)->Profile(IA, Ctx, /*Canonical=*/true);
  bare(B)->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// `b.size()` on a ferry::Buffer: the buffer expression, or null.
const Expr *sizeOf(const Expr *E) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(bare(E));
  if (!MC || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier() ||
      MC->getMethodDecl()->getName() != "size")
    return nullptr;
  const Expr *Object = MC->getImplicitObjectArgument();
  QualType T = Object->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return isBufferType(T.getNonReferenceType()) ? Object : nullptr;
}

/// `b.size() / k`, `b.size() - k` or `b.size() >> k` (k a positive
/// constant, 2 or more for `/`): a count visibly smaller than `b`.
bool visiblyLessThanSize(ASTContext &Ctx, const Expr *Count,
                         const Expr *Buffer) {
  const auto *BO = dyn_cast<BinaryOperator>(bare(Count));
  if (!BO)
    return false;
  std::optional<long long> K = integerConstant(Ctx, BO->getRHS());
  const Expr *Object = sizeOf(BO->getLHS());
  if (!K || !Object || !sameObject(Ctx, Object, Buffer))
    return false;
  switch (BO->getOpcode()) {
  case BO_Div:
    return *K >= 2;
  case BO_Sub:
  case BO_Shr:
    return *K >= 1;
  default:
    return false;
  }
}

/// Whether `V` may be given another buffer in `Body`: assigned, swapped or
/// moved from.
bool mayBeReplaced(const Stmt *Body, const VarDecl *V) {
  struct Find : RecursiveASTVisitor<Find> {
    const VarDecl *V;
    bool Replaced = false;
    bool names(const Expr *E) const {
      const auto *DRE = dyn_cast<DeclRefExpr>(bare(E));
      return DRE && DRE->getDecl() == V;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
          Op && Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
          names(Op->getArg(0)))
        Replaced = true;
      if (F && F->getIdentifier() &&
          (F->getName() == "swap" || F->getName() == "move" ||
           F->getName() == "exchange"))
        for (const Expr *Arg : Call->arguments())
          Replaced = Replaced || names(Arg);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      // Its address may reach code that replaces it.
      if (UO->getOpcode() == UO_AddrOf && names(UO->getSubExpr()))
        Replaced = true;
      return true;
    }
  } F;
  F.V = V;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Replaced;
}

/// The element count of a local `ferry::Buffer<T> b(N)` (N a constant),
/// `b(N, v)` or `b{a, b, c}` that keeps its storage in `Caller`.
std::optional<long long> constantSize(ASTContext &Ctx, const Expr *Buffer,
                                      const FunctionDecl *Caller) {
  const auto *DRE = dyn_cast<DeclRefExpr>(bare(Buffer));
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || !isBufferType(V->getType()) ||
      V->getType()->isReferenceType() || !V->getInit() || !Caller ||
      !Caller->hasBody() || mayBeReplaced(Caller->getBody(), V))
    return std::nullopt;
  const Expr *Init = V->getInit()->IgnoreImplicit();
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(Init))
    Init = IL;
  const auto *CE = dyn_cast<CXXConstructExpr>(Init);
  if (!CE || CE->getNumArgs() == 0)
    return std::nullopt;
  if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(
          CE->getArg(0)->IgnoreImplicit())) {
    if (const auto *Elements = dyn_cast<InitListExpr>(
            bare(List->getSubExpr())))
      return Elements->getNumInits();
    return std::nullopt;
  }
  if (!CE->getArg(0)->getType()->isIntegerType())
    return std::nullopt;
  return integerConstant(Ctx, CE->getArg(0));
}

/// How many times the kernel names `P`: once when its covering store is
/// its only use (a second store elsewhere, `out[kc.x + half]`, may cover
/// the rest).
unsigned uses(const FunctionDecl *Kernel, const ParmVarDecl *P) {
  struct Count : RecursiveASTVisitor<Count> {
    const ParmVarDecl *P;
    unsigned N = 0;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      N += Ref->getDecl() == P;
      return true;
    }
  } C;
  C.P = P;
  C.TraverseStmt(Kernel->getBody());
  return C.N;
}

} // namespace

std::vector<LintFinding>
checkWriteOnlyCoverage(ASTContext &Ctx, const CallExpr *Dispatch,
                       const FunctionDecl *Caller,
                       const KernelAccessSummary &Kernel) {
  std::vector<LintFinding> Findings;
  DispatchRange R = dispatchRange(Dispatch);
  if (!R.Visible)
    return Findings;
  for (const ParamAccess &P : Kernel.Buffers) {
    // Only a store that covers exactly the range it is dispatched over
    // says how much it covers (KernelAccess's covering store).
    if (P.Declared != DeclaredAccess::WriteOnly || !P.WritesCoverRange ||
        P.Grid.Valid || P.CoverageDims != R.Dims ||
        P.Index + 1 >= Dispatch->getNumArgs() ||
        uses(Kernel.Kernel, P.Param) != 1)
      continue;
    const Expr *Buffer = Dispatch->getArg(P.Index + 1);
    if (!isBufferType(bare(Buffer)->getType().getNonReferenceType()))
      continue;
    // Each work-item stores its own element: the range's count of them, or
    // fewer under a `kc.x < n` guard.
    std::vector<const Expr *> Bounds;
    if (R.Dims == 1)
      Bounds.push_back(R.Global[0]);
    if (P.CoverageBoundParam >= 0 &&
        static_cast<unsigned>(P.CoverageBoundParam) + 1 <
            Dispatch->getNumArgs())
      Bounds.push_back(Dispatch->getArg(P.CoverageBoundParam + 1));
    const Expr *Short = nullptr;
    for (const Expr *B : Bounds)
      if (!Short && visiblyLessThanSize(Ctx, B, Buffer))
        Short = B;
    std::optional<long long> Size = constantSize(Ctx, Buffer, Caller);
    std::optional<long long> Count = 1;
    for (int D = 0; D < R.Dims && Count; ++D) {
      std::optional<long long> N = R.globalConstant(Ctx, D);
      Count = N ? std::optional<long long>(*Count * *N) : std::nullopt;
    }
    if (!Short && Size) {
      if (Count && *Count < *Size)
        Short = R.Argument;
      for (const Expr *B : Bounds)
        if (std::optional<long long> N = integerConstant(Ctx, B);
            !Short && N && *N < *Size)
          Short = B;
    }
    if (!Short)
      continue;
    std::string Name = lintExpressionText(Ctx, Buffer);
    std::string Param = P.Param->getNameAsString();
    std::optional<long long> ShortCount =
        Short == R.Argument ? Count : integerConstant(Ctx, Short);
    std::string Written = ShortCount
                              ? std::to_string(*ShortCount)
                              : "`" + lintExpressionText(Ctx, Short) + "`";
    if (Size)
      Written += " of the " + std::to_string(*Size);
    LintFinding F;
    F.Kind = LintFinding::Check::WriteOnlyCoverage;
    F.Loc = R.Argument->getBeginLoc();
    F.Message = "this dispatch of '" + Kernel.Kernel->getNameAsString() +
                "' writes only " + Written + " elements of '" + Name +
                "', but its parameter '" + Param +
                "' is FERRY_WO: '" + Name +
                "' is not copied to the device first, so the rest of it "
                "comes back as whatever the device held";
    SourceLocation At = declaredAccessLoc(P.Param);
    F.Notes.push_back({At.isValid() ? At : P.Param->getLocation(),
                       "'" + Param +
                           "' is declared FERRY_WO here: the promise that "
                           "the kernel overwrites every element the host "
                           "reads later"});
    if (P.FirstWriteExpr)
      F.Notes.push_back({P.FirstWriteExpr->getBeginLoc(),
                         "each work-item writes one element here"});
    Findings.push_back(std::move(F));
  }
  return Findings;
}

std::vector<LintFinding> checkMissingLocal(ASTContext &Ctx,
                                           const CallExpr *Dispatch,
                                           const ReachableGraph &Kernel) {
  std::vector<LintFinding> Findings;
  DispatchRange R = dispatchRange(Dispatch);
  if (!R.Visible || R.HasLocal)
    return Findings;
  std::optional<WorkGroupUse> Use = firstWorkGroupUse(Kernel);
  if (!Use)
    return Findings;
  std::string K = Kernel.Root->getNameAsString();
  LintFinding F;
  F.Kind = LintFinding::Check::MissingLocal;
  F.Loc = R.Argument->getBeginLoc();
  F.Message = "kernel '" + K +
              "' uses work-groups, so its dispatch must give the work-group "
              "size: write `" +
              lintExpressionText(Ctx, R.Argument) + ".local(...)`";
  F.Notes.push_back(
      {Use->Loc, Use->In == Kernel.Root
                     ? "'" + K + "' uses " + Use->What + " here"
                     : "'" + K + "' calls '" + Use->In->getNameAsString() +
                           "', which uses " + Use->What + " here"});
  Findings.push_back(std::move(F));
  return Findings;
}

} // namespace ferry
