#include "analyses/host/CallableReach.h"

#include "analyses/paths/AccessPath.h"
#include "model/FerryTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace ferry {

const FunctionDecl *enclosingNonLambda(const FunctionDecl *F) {
  while (const auto *M = dyn_cast_or_null<CXXMethodDecl>(F)) {
    if (!M->getParent()->isLambda())
      break;
    F = dyn_cast_or_null<FunctionDecl>(
        M->getParent()->getParentFunctionOrMethod());
  }
  return F;
}

static void addReached(QualType T, std::vector<QualType> &Out) {
  for (QualType Element : heldBufferElements(T))
    addElementOnce(Out, Element);
}

std::vector<CallableReach> callablesReachingBuffers(ASTContext &Ctx) {
  struct Find : RecursiveASTVisitor<Find> {
    const SourceManager *SM;
    std::vector<const LambdaExpr *> Lambdas;
    std::set<const LambdaExpr *> Computes;
    std::vector<const CXXRecordDecl *> Functors;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitLambdaExpr(LambdaExpr *L) {
      // (The runtime's own lambdas are never the user's std::functions.)
      if (!L->getLambdaClass()->isDependentContext() &&
          !inFerryRuntime(L->getLambdaClass()) &&
          !SM->isInSystemHeader(L->getBeginLoc()))
        Lambdas.push_back(L);
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (isAcceleratorCompute(Call) && Call->getNumArgs() == 1)
        if (const auto *L =
                dyn_cast<LambdaExpr>(Call->getArg(0)->IgnoreImplicit()))
          Computes.insert(L);
      return true;
    }
    bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
      if (RD->isThisDeclarationADefinition() && !RD->isLambda() &&
          !RD->isDependentContext() &&
          !SM->isInSystemHeader(RD->getLocation()) && !inFerryRuntime(RD) &&
          llvm::any_of(RD->methods(), [](const CXXMethodDecl *M) {
            return M->getOverloadedOperator() == OO_Call;
          }))
        Functors.push_back(RD);
      return true;
    }
  } F;
  F.SM = &Ctx.getSourceManager();
  F.TraverseDecl(Ctx.getTranslationUnitDecl());

  std::vector<CallableReach> Out;
  for (const LambdaExpr *L : F.Lambdas) {
    if (F.Computes.count(L))
      continue;
    CallableReach R;
    R.MadeIn = enclosingNonLambda(L->getCallOperator());
    R.FollowedByName = true;
    for (const LambdaCapture &C : L->captures()) {
      if (C.capturesThis()) {
        const auto *Method = dyn_cast_or_null<CXXMethodDecl>(R.MadeIn);
        const CXXRecordDecl *This = Method ? Method->getParent() : nullptr;
        if (This && holdsBuffers(QualType(This->getTypeForDecl(), 0))) {
          addReached(QualType(This->getTypeForDecl(), 0), R.Elements);
          R.FollowedByName = false;
        }
        continue;
      }
      const auto *V = C.capturesVariable()
                          ? dyn_cast<VarDecl>(C.getCapturedVar())
                          : nullptr;
      if (!V || !holdsBuffers(V->getType()))
        continue;
      // A copy (of a pointer, or of an object holding buffers by pointer:
      // buffers cannot be copied) reaches them as the original does; a
      // buffer moved into an init capture is the lambda's, counted all the
      // same.
      QualType T = V->getType();
      addReached(T, R.Elements);
      QualType Held = T.getNonReferenceType();
      if (C.getCaptureKind() != LCK_ByRef || V->isInitCapture() ||
          (Held->isPointerType() && !refersToBuffer(Held)))
        R.FollowedByName = false;
    }
    if (!R.Elements.empty())
      Out.push_back(std::move(R));
  }
  for (const CXXRecordDecl *RD : F.Functors) {
    CallableReach R;
    addReached(QualType(RD->getTypeForDecl(), 0), R.Elements);
    if (!R.Elements.empty())
      Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace ferry
