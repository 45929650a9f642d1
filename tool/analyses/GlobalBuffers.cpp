#include "analyses/GlobalBuffers.h"

#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ferry {

bool isGlobalBufferVariable(const VarDecl *V) {
  return V && V->hasGlobalStorage() && !V->isStaticLocal() &&
         refersToBuffer(V->getType());
}

static bool isLibraryFunction(const FunctionDecl *F) {
  if (F->getBuiltinID() ||
      F->getASTContext().getSourceManager().isInSystemHeader(F->getLocation()))
    return true;
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "ferry" &&
          NS->getParent()->getRedeclContext()->isTranslationUnit())
        return true; // the runtime touches only what it is given
  return false;
}

const GlobalReach &GlobalReachCache::of(const FunctionDecl *F) {
  F = F->getDefinition() ? F->getDefinition() : F;
  if (auto It = Cache.find(F); It != Cache.end())
    return It->second;
  // A recursive call: what it reaches is not known yet, so anything.
  static const GlobalReach Anything{{}, true};
  if (!InProgress.insert(F).second)
    return Anything;
  GlobalReach R;
  if (!F->hasBody()) {
    R.Unseen = !isLibraryFunction(F);
    InProgress.erase(F);
    return Cache[F] = R;
  }
  struct Walk : RecursiveASTVisitor<Walk> {
    GlobalReachCache *Self;
    GlobalReach Found;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
          isGlobalBufferVariable(V))
        Found.Named.insert(V);
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (isDispatchCall(Call))
        return true;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee) {
        Found.Unseen = true;
        return true;
      }
      if (isLibraryFunction(Callee))
        return true;
      const GlobalReach &Sub = Self->of(Callee);
      Found.Named.insert(Sub.Named.begin(), Sub.Named.end());
      Found.Unseen = Found.Unseen || Sub.Unseen;
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      // A user class's constructor runs code too.
      if (const CXXConstructorDecl *C = E->getConstructor();
          C && !isLibraryFunction(C) && !C->isImplicit()) {
        const GlobalReach &Sub = Self->of(C);
        Found.Named.insert(Sub.Named.begin(), Sub.Named.end());
        Found.Unseen = Found.Unseen || Sub.Unseen;
      }
      return true;
    }
  } W;
  W.Self = this;
  W.TraverseStmt(F->getBody());
  InProgress.erase(F);
  return Cache[F] = std::move(W.Found);
}

} // namespace ferry
