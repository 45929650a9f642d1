#include "analyses/lifetime/ComputeSites.h"

#include "model/FerryTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {

namespace {

class ComputeSiteFinder : public RecursiveASTVisitor<ComputeSiteFinder> {
public:
  std::vector<ComputeSite> Sites;

  bool TraverseDecl(Decl *D) {
    const FunctionDecl *Saved = Current;
    if (const auto *F = dyn_cast_or_null<FunctionDecl>(D))
      Current = F;
    RecursiveASTVisitor::TraverseDecl(D);
    Current = Saved;
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isAcceleratorCompute(Call) && Call->getNumArgs() == 1 && Current)
      if (const auto *L =
              dyn_cast<LambdaExpr>(Call->getArg(0)->IgnoreImplicit()))
        Sites.push_back({Call, L, Current});
    return true;
  }

private:
  const FunctionDecl *Current = nullptr;
};

} // namespace

std::vector<ComputeSite> findComputeSites(ASTContext &Ctx) {
  ComputeSiteFinder Find;
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Find.Sites);
}

const CallExpr *singleCallOf(const FunctionDecl *LambdaOperator) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(LambdaOperator->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *E = dyn_cast<Expr>(Body->body_front());
  return E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
}

} // namespace ferry
