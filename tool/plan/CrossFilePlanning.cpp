#include "plan/CrossFilePlanning.h"

#include "analyses/lifetime/HiddenWriters.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ferry {

namespace {
/// Every function declaration of the unit outside system headers.
std::vector<const FunctionDecl *> userFunctions(ASTContext &Ctx) {
  struct Find : RecursiveASTVisitor<Find> {
    SourceManager *SM;
    std::vector<const FunctionDecl *> Found;
    bool shouldVisitLambdaExpressions() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *F) {
      if (!SM->isInSystemHeader(SM->getExpansionLoc(F->getLocation())))
        Found.push_back(F);
      return true;
    }
  } F;
  F.SM = &Ctx.getSourceManager();
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Found;
}
} // namespace

void useTargetHostAccess(HostSummaryCache &Host, const TargetSummaries &T) {
  Host.Elsewhere = [&T](const FunctionDecl *F) -> const std::vector<Access> * {
    const std::vector<Access> *A = T.hostAccess(usrOf(F));
    // A summary of another signature is not this function's.
    return A && A->size() == F->getNumParams() ? A : nullptr;
  };
  Host.ElsewhereKernelUse = [&T](const FunctionDecl *F, int Param,
                                 const FieldPath &Path)
      -> std::optional<KernelUse> {
    // (Its own file saw F's body with the parameters it declares there.)
    if (Param >= static_cast<int>(F->getNumParams()))
      return std::nullopt;
    std::vector<std::string> Members;
    for (const FieldDecl *FD : Path)
      Members.push_back(usrOf(FD));
    const KernelOnlyPath *P = T.kernelOnly(usrOf(F), Param, Members);
    if (!P)
      return std::nullopt;
    KernelUse Use;
    Use.Written = P->Written;
    return Use;
  };
  Host.ElsewhereHidden = [&T](const FunctionDecl *F) {
    return T.runsHidden(usrOf(F));
  };
  Host.globals().ElsewhereHidden = Host.ElsewhereHidden;
  Host.ElsewhereMembers = [&T](const CXXMethodDecl *M, const FieldPath &Path)
      -> std::optional<ElsewhereMemberUse> {
    std::vector<std::string> Members;
    for (const FieldDecl *FD : Path)
      Members.push_back(usrOf(FD));
    std::optional<MemberPathAccess> P = T.memberAccess(usrOf(M), Members);
    if (!P)
      return std::nullopt;
    return ElsewhereMemberUse{P->Mode, P->Escapes};
  };
  Host.ElsewhereKeeps = [&T](const FunctionDecl *F, unsigned Param) {
    return !T.keepsNothing(usrOf(F), Param);
  };
  Host.ElsewhereMakesFresh = [&T](const CXXConstructorDecl *Ctor) {
    return T.makesFresh(usrOf(Ctor));
  };
  Host.ElsewherePointers = [&T](QualType Elem, bool ReadsToo) {
    for (const std::string &Part : pointerPlaceSpellings(Elem))
      if (T.pointerPlaceElsewhere(Part, ReadsToo))
        return true;
    return false;
  };
  Host.ElsewhereGlobalBuffers = [&T] { return T.globalBuffersElsewhere(); };
  Host.ElsewhereCallableElements = [&T] {
    return T.callableElementsElsewhere();
  };
  Host.ElsewhereDerivedElements = [&T](const CXXRecordDecl *Base) {
    std::set<std::string> BaseAndAncestors{usrOf(Base)};
    Base->forallBases([&](const CXXRecordDecl *B) {
      BaseAndAncestors.insert(usrOf(B));
      return true;
    });
    return T.derivedElementsElsewhere(usrOf(Base), BaseAndAncestors);
  };
  Host.ElsewhereRanges = [&T](const FunctionDecl *F)
      -> const std::vector<std::optional<ElementRange>> * {
    const std::vector<std::optional<ElementRange>> *R = T.hostRanges(usrOf(F));
    return R && R->size() == F->getNumParams() ? R : nullptr;
  };
}

void addTargetPlanned(ASTContext &Ctx, const TargetSummaries &T,
                      const std::vector<ReachableGraph> &Graphs,
                      std::set<const FunctionDecl *> &Planned,
                      const std::function<void(const FunctionDecl *)> &PlanRoot) {
  std::set<const FunctionDecl *> InGraph;
  for (const ReachableGraph &G : Graphs)
    InGraph.insert(G.Functions.begin(), G.Functions.end());
  for (const FunctionDecl *F : userFunctions(Ctx)) {
    if (!F->doesThisDeclarationHaveABody() || Planned.count(F) ||
        !T.planned(usrOf(F)))
      continue;
    if (!InGraph.count(F))
      PlanRoot(F);
    Planned.insert(F);
  }
}

std::set<const FunctionDecl *> plannedElsewhere(ASTContext &Ctx,
                                                const TargetSummaries &T) {
  std::set<const FunctionDecl *> Result;
  for (const FunctionDecl *F : userFunctions(Ctx))
    if (!F->getDefinition() && T.planned(usrOf(F)))
      for (const FunctionDecl *R : F->redecls())
        Result.insert(R);
  return Result;
}

void adjustEntriesAndInternal(const TargetSummaries &T,
                              const std::set<const FunctionDecl *> &Planned,
                              std::set<const FunctionDecl *> &Entries,
                              std::set<const FunctionDecl *> &Internal) {
  for (const FunctionDecl *F : Planned) {
    if (!F->isExternallyVisible())
      continue; // no other file can name it
    std::string Usr = usrOf(F);
    bool CalledElsewhere = T.calledByPlannedElsewhere(Usr);
    if (CalledElsewhere)
      Entries.erase(F);
    bool Local = Internal.count(F) || (CalledElsewhere && T.unusedHere(Usr));
    if (Local && T.onlyPlannedCallsElsewhere(Usr))
      Internal.insert(F);
    else
      Internal.erase(F);
  }
}

KeepsNothingElsewhere targetKeepsNothing(const TargetSummaries &T) {
  return [&T](const FunctionDecl *F, unsigned Index) {
    return T.keepsNothing(usrOf(F), Index);
  };
}

void adjustDeadAfterCompute(
    const TargetSummaries &T, const std::set<const FunctionDecl *> &Entries,
    std::map<const FunctionDecl *, std::set<const ValueDecl *>> &Dead) {
  for (const FunctionDecl *F : Entries) {
    if (!F->isExternallyVisible() || isa<CXXMethodDecl>(F))
      continue;
    std::string Usr = usrOf(F);
    const SourceManager &SM = F->getASTContext().getSourceManager();
    if (!SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation()))) {
      // Inline in a header: every file including it plans it, and all
      // their copies must be the same (the ODR), so the decision is the
      // target's, this file's starts of it among the others.
      std::set<unsigned> Anywhere = T.deadAnywhere(Usr).value_or(
          std::set<unsigned>{});
      std::set<const ValueDecl *> Here;
      for (unsigned I = 0; I < F->getNumParams(); ++I)
        if (Anywhere.count(I))
          Here.insert(F->getParamDecl(I));
      Dead[F] = std::move(Here);
      continue;
    }
    std::optional<std::set<unsigned>> Elsewhere = T.deadElsewhere(Usr);
    if (!Elsewhere)
      continue; // called from this file only: its own analysis stands
    std::set<const ValueDecl *> Here;
    bool CalledHere = !T.unusedHere(Usr);
    for (unsigned I = 0; I < F->getNumParams(); ++I) {
      const ParmVarDecl *P = F->getParamDecl(I);
      if (Elsewhere->count(I) && (!CalledHere || Dead[F].count(P)))
        Here.insert(P);
    }
    Dead[F] = std::move(Here);
  }
}

void adjustMayStayOnDevice(
    const TargetSummaries &T, const std::set<const FunctionDecl *> &Entries,
    std::map<const FunctionDecl *, std::set<const ValueDecl *>> &Kept) {
  for (const FunctionDecl *F : Entries) {
    if (isa<CXXMethodDecl>(F) || !F->hasBody())
      continue;
    const SourceManager &SM = F->getASTContext().getSourceManager();
    bool InHeader =
        !SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation()));
    if (!InHeader && !F->isExternallyVisible())
      continue; // no other file can start a compute with it
    std::string Usr = usrOf(F);
    std::set<const ValueDecl *> Here;
    if (!InHeader)
      Here = Kept[F];
    for (unsigned I : T.keptOnDevice(Usr, /*AndHere=*/InHeader))
      if (I < F->getNumParams())
        Here.insert(F->getParamDecl(I));
    if (Here.empty())
      Kept.erase(F);
    else
      Kept[F] = std::move(Here);
  }
}

} // namespace ferry
