#include "analyses/kernel/DispatchRange.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ferry {

std::optional<long long> integerConstant(const ASTContext &Ctx,
                                         const Expr *E) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

std::optional<long long> DispatchRange::globalConstant(const ASTContext &Ctx,
                                                       int D) const {
  if (!Visible || D < 0 || D >= Dims)
    return std::nullopt;
  return integerConstant(Ctx, Global[D]);
}

static bool allOnes(const ASTContext &Ctx, const Expr *const *Sizes,
                    int Dims) {
  for (int D = 0; D < Dims; ++D)
    if (integerConstant(Ctx, Sizes[D]) != 1)
      return false;
  return Dims > 0;
}

bool DispatchRange::singleItem(const ASTContext &Ctx) const {
  return Visible && allOnes(Ctx, Global, Dims);
}

bool DispatchRange::singleItemGroups(const ASTContext &Ctx) const {
  return Visible && HasLocal && allOnes(Ctx, Local, Dims);
}

/// Through the temporaries and copies C++ puts around a prvalue argument.
static const Expr *strip(const Expr *E) {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E);
             F && isa<CXXConstructExpr>(strip(F->getSubExpr())))
      E = F->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() == 1 && CE->getConstructor() &&
             CE->getConstructor()->isCopyOrMoveConstructor())
      E = CE->getArg(0);
    else
      return E;
  }
}

static bool isRangeType(QualType T) {
  const auto *RD = T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!RD || RD->getName() != "Range")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return NS && NS->getName() == "ferry";
}

/// The sizes a `Range(...)` constructor or a `.local(...)` call is given.
static int sizes(llvm::ArrayRef<const Expr *> Args, const Expr **Out) {
  int N = 0;
  for (const Expr *A : Args) {
    if (isa<CXXDefaultArgExpr>(A) || N == 3)
      break;
    if (A->getType()->getAsCXXRecordDecl())
      return 0;
    Out[N++] = A;
  }
  return N;
}

DispatchRange dispatchRange(const CallExpr *Dispatch) {
  DispatchRange R;
  if (!Dispatch || Dispatch->getNumArgs() < 2)
    return R;
  R.Argument = Dispatch->getArg(1);
  const Expr *E = strip(R.Argument);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || !M->getIdentifier() || M->getName() != "local" ||
        !isRangeType(MC->getImplicitObjectArgument()->getType()))
      return R;
    llvm::SmallVector<const Expr *, 3> Args(MC->arguments());
    if (!sizes(Args, R.Local))
      return R;
    R.HasLocal = true;
    E = strip(MC->getImplicitObjectArgument());
  }
  const auto *CE = dyn_cast<CXXConstructExpr>(E);
  if (!CE || !isRangeType(CE->getType()))
    return {};
  llvm::SmallVector<const Expr *, 3> Args(CE->arguments());
  R.Dims = sizes(Args, R.Global);
  R.Visible = R.Dims > 0;
  if (!R.Visible)
    return {};
  R.Argument = Dispatch->getArg(1);
  return R;
}

} // namespace ferry
