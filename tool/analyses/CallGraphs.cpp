#include "analyses/CallGraphs.h"

#include "model/FerryTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace ferry {

/// Ferry's own runtime (ferry::Buffer's members and the like): part of
/// neither graph, and never translated.
bool isRuntimeFunction(const FunctionDecl *F) {
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "ferry" &&
          NS->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
  return false;
}

bool isAtomicFunction(const FunctionDecl *F) {
  return F && isRuntimeFunction(F) && F->getIdentifier() &&
         F->getName().starts_with("atomic");
}

namespace {
class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Calls;
  bool Dispatches = false;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    if (isDispatchCall(Call)) {
      Dispatches = true;
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (const FunctionDecl *Def = Callee->getDefinition())
      // Compiler-provided members (a struct's implicit operator=) have no
      // body of the user's to analyse or translate.
      if (Def->hasBody() && !isRuntimeFunction(Def) && !Def->isImplicit() &&
          !Def->isDefaulted() &&
          !Def->getASTContext().getSourceManager().isInSystemHeader(
              Def->getLocation()))
        Calls.emplace_back(Call, Def);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *) { return true; }
};
} // namespace

std::vector<std::pair<const CallExpr *, const FunctionDecl *>>
directCalls(const FunctionDecl *F) {
  CallFinder Finder;
  if (F->hasBody())
    Finder.TraverseStmt(F->getBody());
  return Finder.Calls;
}

bool dispatchesDirectly(const FunctionDecl *F) {
  CallFinder Finder;
  if (F->hasBody())
    Finder.TraverseStmt(F->getBody());
  return Finder.Dispatches;
}

bool mayRunOverride(const CXXMethodDecl *M, const Expr *Object,
                    bool Qualified) {
  if (!M || !M->isVirtual() || Qualified || M->hasAttr<FinalAttr>() ||
      M->getParent()->hasAttr<FinalAttr>())
    return false;
  // Only where the method named is the one that runs: Clang also sees
  // through `static_cast<Base &>(d)` to D's override, which the call graph
  // (its direct callee, Base's) does not follow.
  const CXXMethodDecl *Runs =
      Object ? M->getDevirtualizedMethod(Object, /*IsAppleKext=*/false)
             : nullptr;
  return !Runs || Runs->getCanonicalDecl() != M->getCanonicalDecl();
}

MethodCall methodCallOf(const CallExpr *Call) {
  MethodCall Out;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    Out.Method = MC->getMethodDecl();
    Out.Object = MC->getImplicitObjectArgument();
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    Out.Qualified = ME && ME->hasQualifier();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    if (M && !M->getParent()->isLambda() && Op->getNumArgs() > 0) {
      Out.Method = M;
      Out.Object = Op->getArg(0);
    }
  }
  return Out;
}

bool isVirtualCall(const CallExpr *Call) {
  MethodCall C = methodCallOf(Call);
  return mayRunOverride(C.Method, C.Object, C.Qualified);
}

bool handsComputeContext(const CallExpr *Call) {
  return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
    return isComputeContextType(Arg->getType().getNonReferenceType());
  });
}

bool isUnseenCallWithContext(const CallExpr *Call) {
  if (isDispatchCall(Call) || !handsComputeContext(Call))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  return !Callee || isVirtualCall(Call) ||
         (!isRuntimeFunction(Callee) &&
                     Callee->getASTContext().getSourceManager().isInSystemHeader(
                         Callee->getLocation()));
}

bool callsUnseenWithContext(const FunctionDecl *F) {
  struct Find : RecursiveASTVisitor<Find> {
    bool Found = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      return !(Found = Found || isUnseenCallWithContext(Call));
    }
  } Finder;
  if (F->hasBody())
    Finder.TraverseStmt(F->getBody());
  return Finder.Found;
}

static ReachableGraph reachable(const FunctionDecl *Root, bool Compute) {
  ReachableGraph G;
  G.Root = Root;
  std::set<const FunctionDecl *> Seen{Root};
  std::vector<const FunctionDecl *> Work{Root};
  while (!Work.empty()) {
    const FunctionDecl *F = Work.front();
    Work.erase(Work.begin());
    G.Functions.push_back(F);
    if (Compute) {
      // Dispatches are found in program order by a separate walk.
      class DispatchFinder : public RecursiveASTVisitor<DispatchFinder> {
      public:
        ReachableGraph &G;
        explicit DispatchFinder(ReachableGraph &G) : G(G) {}
        bool TraverseLambdaExpr(LambdaExpr *) { return true; }
        bool VisitCallExpr(CallExpr *Call) {
          if (isDispatchCall(Call)) {
            // A kernel chosen at run time: each it may be.
            std::vector<const FunctionDecl *> Kernels = dispatchedKernels(Call);
            if (Kernels.empty())
              G.Dispatches.emplace_back(Call, nullptr);
            for (const FunctionDecl *K : Kernels)
              G.Dispatches.emplace_back(Call, K);
          }
          return true;
        }
      } Finder(G);
      if (F->hasBody())
        Finder.TraverseStmt(F->getBody());
    }
    for (auto [Site, Callee] : directCalls(F)) {
      G.Calls.push_back({F, Callee, Site});
      if (Seen.insert(Callee).second)
        Work.push_back(Callee);
    }
  }
  return G;
}

ReachableGraph kernelReachableGraph(const FunctionDecl *Kernel) {
  return reachable(Kernel, /*Compute=*/false);
}

ReachableGraph computeReachableGraph(const FunctionDecl *Compute) {
  return reachable(Compute, /*Compute=*/true);
}

} // namespace ferry
