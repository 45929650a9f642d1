#include "analyses/kernel/WorkGroupUse.h"

#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ferry {

namespace {
class FirstUse : public RecursiveASTVisitor<FirstUse> {
public:
  FirstUse(const SourceManager &SM) : SM(SM) {}
  std::optional<WorkGroupUse> Found;
  const FunctionDecl *In = nullptr;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitMemberExpr(MemberExpr *ME) {
    QualType T = ME->getBase()->getType();
    if (ME->isArrow() && T->isPointerType())
      T = T->getPointeeType();
    if (!isKernelContextType(T) || !ME->getMemberDecl()->getIdentifier())
      return true;
    llvm::StringRef Name = ME->getMemberDecl()->getName();
    if (Name == "barrier")
      note(ME->getBeginLoc(), "kc.barrier()");
    else if (Name.starts_with("local") || Name.starts_with("group"))
      note(ME->getBeginLoc(), ("kc." + Name).str());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (isLocalArrayType(V->getType()) && !isa<ParmVarDecl>(V))
      note(V->getLocation(), "the ferry::Local '" + V->getNameAsString() + "'");
    return true;
  }

  void note(SourceLocation Loc, std::string What) {
    if (Found && !SM.isBeforeInTranslationUnit(Loc, Found->Loc))
      return;
    Found = WorkGroupUse{Loc, std::move(What), In};
  }

private:
  const SourceManager &SM;
};
} // namespace

std::optional<WorkGroupUse> firstWorkGroupUse(const ReachableGraph &Kernel) {
  if (!Kernel.Root)
    return std::nullopt;
  const SourceManager &SM = Kernel.Root->getASTContext().getSourceManager();
  for (const ParmVarDecl *P : Kernel.Root->parameters())
    if (isLocalSpanType(P->getType()))
      return WorkGroupUse{P->getLocation(),
                          "the ferry::LocalSpan parameter '" +
                              P->getNameAsString() + "'",
                          Kernel.Root};
  for (const FunctionDecl *F : Kernel.Functions) {
    if (!F->hasBody())
      continue;
    FirstUse Finder(SM);
    Finder.In = F;
    Finder.TraverseStmt(F->getBody());
    if (F != Kernel.Root)
      for (const ParmVarDecl *P : F->parameters())
        if (isLocalSpanType(P->getType()))
          Finder.note(P->getLocation(), "the ferry::LocalSpan parameter '" +
                                            P->getNameAsString() + "'");
    if (Finder.Found)
      return Finder.Found;
  }
  return std::nullopt;
}

} // namespace ferry
