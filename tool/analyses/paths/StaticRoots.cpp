#include "analyses/paths/StaticRoots.h"

#include "analyses/CallGraphs.h"
#include "analyses/MpiCalls.h"
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

bool isGlobalBufferHolder(const VarDecl *V) {
  return V && V->hasGlobalStorage() && !V->isStaticLocal() &&
         !refersToBuffer(V->getType()) && holdsBuffers(V->getType());
}

/// V's scope, the unnamed namespaces it is in seen through: names there are
/// found from the enclosing one.
static const DeclContext *home(const VarDecl *V) {
  const DeclContext *DC = V->getDeclContext();
  while (const auto *NS = dyn_cast<NamespaceDecl>(DC))
    if (NS->isAnonymousNamespace())
      DC = DC->getParent();
    else
      break;
  return DC;
}

std::string globalSpelling(const VarDecl *V, const FunctionDecl *F) {
  std::string Name = V->getNameAsString();
  // Names F's function (or, for a lambda, the function around it) declares
  // may hide V.
  const FunctionDecl *Outer = F;
  while (const auto *P = dyn_cast_or_null<FunctionDecl>(
             Outer->getDeclContext()->getNonClosureAncestor()))
    if (P == Outer)
      break;
    else
      Outer = P;
  struct Names : RecursiveASTVisitor<Names> {
    std::string Name;
    bool Found = false;
    bool VisitNamedDecl(NamedDecl *D) {
      Found = Found || D->getNameAsString() == Name;
      return true;
    }
  } Declared;
  Declared.Name = Name;
  for (const FunctionDecl *G : {F, Outer}) {
    for (const ParmVarDecl *P : G->parameters())
      Declared.Found = Declared.Found || P->getNameAsString() == Name;
    if (G->hasBody())
      Declared.TraverseStmt(G->getBody());
  }
  bool Plain = false;
  if (!Declared.Found) {
    const DeclContext *Home = home(V)->getPrimaryContext();
    for (const DeclContext *DC = Outer->getDeclContext(); DC;
         DC = DC->getParent()) {
      if (DC->isFunctionOrMethod())
        continue;
      if (DC->getPrimaryContext() == Home) {
        Plain = true;
        break;
      }
      if (!DC->lookup(V->getDeclName()).empty())
        break; // something nearer has that name
    }
  }
  if (Plain)
    return Name;
  std::string Qualified;
  for (const DeclContext *DC = home(V); DC && !DC->isTranslationUnit();
       DC = DC->getParent()) {
    const auto *ND = dyn_cast<NamedDecl>(DC);
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->isAnonymousNamespace())
      continue;
    if (ND)
      Qualified = ND->getNameAsString() + "::" + Qualified;
  }
  return "::" + Qualified + Name;
}

std::vector<const FieldDecl *> namedBufferFields(const VarDecl *V, bool &All) {
  std::vector<const FieldDecl *> Fields;
  All = false;
  const auto *RD = V->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->getNumBases() > 0)
    return Fields;
  All = true;
  for (const FieldDecl *FD : RD->fields()) {
    QualType T = FD->getType();
    if (isBufferType(T.getNonReferenceType()))
      Fields.push_back(FD);
    else if (holdsBuffers(T))
      All = false;
  }
  return Fields;
}

const std::vector<const VarDecl *> &
GlobalReachCache::declaredGlobals(ASTContext &Ctx) {
  if (Declared)
    return *Declared;
  struct Find : RecursiveASTVisitor<Find> {
    std::vector<const VarDecl *> Found;
    bool VisitVarDecl(VarDecl *V) {
      if ((isGlobalBufferVariable(V) || isGlobalBufferHolder(V)) &&
          V->isFirstDecl())
        Found.push_back(V);
      return true;
    }
    bool TraverseFunctionDecl(FunctionDecl *) { return true; }
    bool TraverseCXXMethodDecl(CXXMethodDecl *) { return true; }
  } F;
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  Declared = std::move(F.Found);
  return *Declared;
}

bool GlobalReachCache::anyGlobalBuffers(ASTContext &Ctx) {
  return !declaredGlobals(Ctx).empty();
}

std::set<const VarDecl *> GlobalReachCache::tableGlobals(const FunctionDecl *F) {
  const GlobalReach &R = of(F);
  if (!R.PlannedElsewhere)
    return R.Named;
  std::set<const VarDecl *> All = R.Named;
  const SourceManager &SM = F->getASTContext().getSourceManager();
  for (const VarDecl *V : declaredGlobals(F->getASTContext()))
    if (!V->getType()->isPointerType() &&
        SM.isBeforeInTranslationUnit(V->getLocation(), F->getLocation()) &&
        !llvm::any_of(All, [&](const VarDecl *N) {
          return N->getCanonicalDecl() == V->getCanonicalDecl();
        }))
      All.insert(V);
  return All;
}

static bool isLibraryFunction(const FunctionDecl *F) {
  // The runtime touches only what it is given; so do the MPI functions
  // Ferry understands (MpiCalls.h), wherever <mpi.h> is found: a program
  // usually reaches it through -I, not as a system header.
  return F->getBuiltinID() || isRuntimeFunction(F) ||
         F->getASTContext().getSourceManager().isInSystemHeader(
             F->getLocation()) ||
         mpiFunction(F);
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
    // A function of another Ferry source whose summary says it runs only
    // described code and names no global buffer reaches none.
    R.Unseen = !isLibraryFunction(F) &&
               !(ElsewhereHidden && !ElsewhereHidden(F));
    R.PlannedElsewhere = Elsewhere.count(F) != 0;
    InProgress.erase(F);
    return Cache[F] = R;
  }
  struct Walk : RecursiveASTVisitor<Walk> {
    GlobalReachCache *Self;
    GlobalReach Found;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
          isGlobalBufferVariable(V) || isGlobalBufferHolder(V))
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
      // A call that may run an override reaches what the method it names
      // and each override this unit defines reach; one defined elsewhere
      // is code Ferry cannot see. (`st.run(cc)` of a local `Sim st` runs
      // Sim's own method: an ordinary call.)
      if (isVirtualCall(Call)) {
        Found.Unseen = true;
        for (const CXXMethodDecl *M :
             Self->mayRun(cast<CXXMethodDecl>(Callee)))
          add(Self->of(M));
        return true;
      }
      add(Self->of(Callee));
      return true;
    }
    void add(const GlobalReach &Sub) {
      Found.Named.insert(Sub.Named.begin(), Sub.Named.end());
      Found.Unseen = Found.Unseen || Sub.Unseen;
      Found.PlannedElsewhere = Found.PlannedElsewhere || Sub.PlannedElsewhere;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      // A user class's constructor runs code too.
      if (const CXXConstructorDecl *C = E->getConstructor();
          C && !isLibraryFunction(C) && !C->isImplicit())
        add(Self->of(C));
      return true;
    }
  } W;
  W.Self = this;
  W.TraverseStmt(F->getBody());
  InProgress.erase(F);
  return Cache[F] = std::move(W.Found);
}

std::vector<const CXXMethodDecl *>
GlobalReachCache::mayRun(const CXXMethodDecl *M) {
  if (!Overriders) {
    Overriders.emplace();
    struct Find : RecursiveASTVisitor<Find> {
      std::map<const CXXMethodDecl *, std::vector<const CXXMethodDecl *>> *Out;
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitCXXMethodDecl(CXXMethodDecl *D) {
        if (!D->isThisDeclarationADefinition())
          return true;
        std::vector<const CXXMethodDecl *> Up;
        std::set<const CXXMethodDecl *> Seen;
        auto Overridden = [&](const CXXMethodDecl *B) {
          for (const CXXMethodDecl *O :
               B->getCanonicalDecl()->overridden_methods())
            Up.push_back(O->getCanonicalDecl());
        };
        Overridden(D);
        while (!Up.empty()) {
          const CXXMethodDecl *B = Up.back();
          Up.pop_back();
          if (!Seen.insert(B).second)
            continue;
          (*Out)[B].push_back(D);
          Overridden(B);
        }
        return true;
      }
    } F;
    F.Out = &*Overriders;
    F.TraverseDecl(M->getASTContext().getTranslationUnitDecl());
  }
  std::vector<const CXXMethodDecl *> Out{M};
  if (auto It = Overriders->find(M->getCanonicalDecl());
      It != Overriders->end())
    Out.insert(Out.end(), It->second.begin(), It->second.end());
  return Out;
}

} // namespace ferry
