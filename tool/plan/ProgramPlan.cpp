#include "plan/ProgramPlan.h"
#include "plan/TemplateInstances.h"

#include "analyses/lifetime/ComputeOnlyMembers.h"
#include "analyses/lifetime/ComputeSites.h"
#include "analyses/paths/ElementSteps.h"
#include "analyses/paths/MemberSteps.h"
#include "analyses/lifetime/ExitLiveness.h"
#include "analyses/paths/StaticRoots.h"
#include "model/Diagnostics.h"
#include "model/FerryTypes.h"
#include "parse/Annotations.h"
#include "plan/CrossFilePlanning.h"
#include "plan/TransferPlanner.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace ferry {

namespace {
/// Every dispatch in the main file and its headers, with the function it
/// sits in, so that one outside a compute function is an error.
struct DispatchSites : RecursiveASTVisitor<DispatchSites> {
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Sites;
  const FunctionDecl *Current = nullptr;
  SourceManager *SM = nullptr;

  bool TraverseDecl(Decl *D) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (!F)
      return RecursiveASTVisitor::TraverseDecl(D);
    const FunctionDecl *Saved = Current;
    Current = F;
    RecursiveASTVisitor::TraverseDecl(D);
    Current = Saved;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    const FunctionDecl *Saved = Current;
    Current = L->getCallOperator();
    RecursiveASTVisitor::TraverseLambdaExpr(L);
    Current = Saved;
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isDispatchCall(Call) && !SM->isInSystemHeader(Call->getBeginLoc()))
      Sites.emplace_back(Call, Current);
    return true;
  }

};

/// Whether every parameter through which F can reach a buffer is a buffer
/// reference or pointer: what its callers pass is then a buffer they track
/// (a struct of buffers or a container of them may hold ones they do not).
/// A class whose every buffer an access path spells and holds by value
/// (`struct Grid { Buffer<float> cur, next; }`, at any depth of members):
/// the caller names each one as it names the class's object
/// (`grid_.cur`), or hands it to the run-time state.
bool spelledByPaths(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isInStdNamespace())
    return false;
  RD = RD->getDefinition();
  for (const CXXBaseSpecifier &B : RD->bases())
    if (holdsBuffers(B.getType()))
      return false;
  for (const FieldDecl *FD : RD->fields())
    if (!isBufferField(FD) && !isNestedBufferField(FD) &&
        holdsBuffers(FD->getType()))
      return false;
  std::vector<FieldPath> Paths = bufferPathsOf(RD);
  return !Paths.empty() &&
         std::none_of(Paths.begin(), Paths.end(), [](const FieldPath &P) {
           // A reference or pointer member may be bound to anything
           // (`Pair{a, b}` built in the call): only buffers held by value.
           return isOpaquePath(P) || !isBufferType(P.back()->getType());
         });
}

bool handsOnlyBuffers(const FunctionDecl *F) {
  for (const ParmVarDecl *P : F->parameters()) {
    QualType T = P->getType();
    QualType Pointee = T->isReferenceType() ? T.getNonReferenceType()
                       : T->isPointerType() ? T->getPointeeType()
                                            : T;
    // `Buffer<T> *grid[2]`: the caller names what each element points to.
    // A container of buffers: its caller names them all (ElementSteps.h).
    bool Plain = ((T->isReferenceType() || T->isPointerType()) &&
                  (isBufferType(Pointee) ||
                   isBufferContainerType(Pointee.getUnqualifiedType()) ||
                   spelledByPaths(Pointee))) ||
                 isBufferPointerArray(P->getOriginalType());
    if (!Plain && holdsBuffers(T))
      return false;
  }
  return true;
}

/// Whether F's body calls one of `Callees` (declarations of functions
/// without a body here), other than inside a lambda.
bool callsAnyOf(const FunctionDecl *F,
                const std::set<const FunctionDecl *> &Callees) {
  if (Callees.empty() || !F->hasBody())
    return false;
  struct Find : RecursiveASTVisitor<Find> {
    const std::set<const FunctionDecl *> *Callees;
    bool Found = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      Found = Found || Callees->count(Call->getDirectCallee()) != 0;
      return !Found;
    }
  } Finder;
  Finder.Callees = &Callees;
  Finder.TraverseStmt(F->getBody());
  return Finder.Found;
}

/// Whether the lambda given to acc.compute whose graph is `G` is planned as
/// a compute function: when it calls compute functions, and does more than
/// call one (a loop over launch wrappers, PolyBench's lu; host code between
/// calls). What it calls then hands its buffers back to it rather than
/// syncing them at every return. It still dispatches nothing itself: the
/// contract has kernels dispatched from compute functions.
bool plansLambda(const ReachableGraph &G,
                 const std::set<const FunctionDecl *> &Planned) {
  if (dispatchesDirectly(G.Root))
    return false;
  // (A call through a function pointer may run a compute function too.)
  bool CallsPlanned = callsUnseenWithContext(G.Root);
  for (const CallEdge &E : G.Calls)
    CallsPlanned = CallsPlanned || (E.Caller == G.Root && Planned.count(E.Callee));
  if (!CallsPlanned)
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(G.Root->getBody());
  if (!Body || Body->size() != 1)
    return true;
  const auto *E = dyn_cast<Expr>(Body->body_front());
  const auto *Call = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return !(Callee && isComputeFunction(Callee->getDefinition()));
}

/// Planned functions whose every use is a direct call from planned code (no
/// unplanned lambda, no address taken, no call from main): they hand their buffers
/// back to a planned caller, whose plan goes on through the call, so they
/// need not make the host copy current on return.
std::set<const FunctionDecl *>
internalFunctions(ASTContext &Ctx,
                  const std::set<const FunctionDecl *> &Planned) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const std::set<const FunctionDecl *> *Planned;
    std::set<const FunctionDecl *> Internal, External;
    const FunctionDecl *Current = nullptr;
    const Expr *Callee = nullptr;
    bool shouldVisitTemplateInstantiations() const { return true; }

    bool TraverseDecl(Decl *D) {
      const auto *F = dyn_cast_or_null<FunctionDecl>(D);
      const FunctionDecl *Saved = Current;
      if (F)
        Current = F->getDefinition() ? F->getDefinition() : F;
      RecursiveASTVisitor::TraverseDecl(D);
      Current = Saved;
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *L) {
      const FunctionDecl *Saved = Current;
      // A call from a lambda is a call from outside, unless the lambda is
      // planned itself.
      Current = L->getCallOperator();
      RecursiveASTVisitor::TraverseLambdaExpr(L);
      Current = Saved;
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (Call->getDirectCallee())
        Callee = Call->getCallee()->IgnoreParenImpCasts();
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
      if (!F)
        return true;
      F = F->getDefinition() ? F->getDefinition() : F;
      if (!Planned->count(F))
        return true;
      bool DirectCall = Ref == Callee;
      if (DirectCall && Current && Planned->count(Current))
        Internal.insert(F);
      else
        External.insert(F);
      return true;
    }
    // `step(cc)` on `this`, `sim.step(cc)`: a method named by a member
    // expression is used like a function named by a reference.
    bool VisitMemberExpr(MemberExpr *ME) {
      const auto *F = dyn_cast<FunctionDecl>(ME->getMemberDecl());
      if (!F)
        return true;
      F = F->getDefinition() ? F->getDefinition() : F;
      if (!Planned->count(F))
        return true;
      if (ME == Callee && Current && Planned->count(Current))
        Internal.insert(F);
      else
        External.insert(F);
      return true;
    }
  } Find;
  Find.Planned = &Planned;
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::set<const FunctionDecl *> Result;
  for (const FunctionDecl *F : Find.Internal)
    if (!Find.External.count(F))
      Result.insert(F);
  return Result;
}
/// Entries the runtime starts once per compute, where its epoch starts: the
/// lambdas written in `acc.compute(…)`, and a function no other file can
/// name whose every use in this one is the one call such a lambda consists
/// of (a lambda that does more is planned, and what it calls is no entry).
/// A function another file can name may be called there in ways no summary
/// records (from a template, through a pointer set up by an initialiser,
/// from a file that is no Ferry source). Any other entry may run more than
/// once in one compute (TransferPlanner.cpp, markEntryDeviceCopiesStale).
const FunctionDecl *definitionOf(const FunctionDecl *F) {
  return F->getDefinition() ? F->getDefinition() : F;
}

std::set<const FunctionDecl *>
startedOncePerCompute(ASTContext &Ctx, const ProgramModel &Model,
                      const std::set<const FunctionDecl *> &Planned) {
  std::set<const FunctionDecl *> Once(Model.ComputeLambdas.begin(),
                                      Model.ComputeLambdas.end());
  std::map<const FunctionDecl *, unsigned> SingleCalls;
  for (const FunctionDecl *Op : Model.ComputeLambdas) {
    const CallExpr *Call = Planned.count(Op) ? nullptr : singleCallOf(Op);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (Callee && !Callee->isExternallyVisible())
      ++SingleCalls[definitionOf(Callee)];
  }
  if (SingleCalls.empty())
    return Once;
  struct Uses : RecursiveASTVisitor<Uses> {
    std::map<const FunctionDecl *, unsigned> Count;
    bool shouldVisitTemplateInstantiations() const { return true; }
    void use(const ValueDecl *D) {
      if (const auto *F = dyn_cast<FunctionDecl>(D))
        ++Count[definitionOf(F)];
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      use(Ref->getDecl());
      return true;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      use(ME->getMemberDecl());
      return true;
    }
  } U;
  U.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (auto [F, Calls] : SingleCalls) {
    // A virtual method may also run through a call naming the one it
    // overrides.
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual())
      continue;
    if (U.Count[F] == Calls)
      Once.insert(F);
  }
  return Once;
}

/// Ferry takes a global buffer pointer to name one buffer through a whole
/// compute, so code a compute function reaches may read it but not re-point
/// it; and a static local buffer of a planned function must be declared
/// where its name reaches the function's end, which brings it home.
/// Returns the planned functions that declare static local buffers.
std::set<const FunctionDecl *>
checkStaticBuffers(ASTContext &Ctx, const std::vector<ReachableGraph> &Graphs,
                   const std::set<const FunctionDecl *> &Planned) {
  struct Check : RecursiveASTVisitor<Check> {
    ASTContext *Ctx;
    const CompoundStmt *Body = nullptr;
    bool StaticLocal = false;
    bool VisitDeclStmt(DeclStmt *DS) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->isStaticLocal() && isBufferType(V->getType())) {
          StaticLocal = true;
          if (!llvm::is_contained(Body->body(), DS))
            reportError(*Ctx, V->getLocation(),
                        "a static buffer of a compute function must be "
                        "declared in the function's outermost block, where "
                        "Ferry can bring it home at the function's end");
        }
      return true;
    }
  };
  // Global buffer pointers, over the whole file: read anywhere, assigned
  // only outside compute code, never reached through their address.
  std::set<const FunctionDecl *> ComputeCode;
  for (const ReachableGraph &G : Graphs)
    ComputeCode.insert(G.Functions.begin(), G.Functions.end());
  struct Pointers : RecursiveASTVisitor<Pointers> {
    ASTContext *Ctx;
    const std::set<const FunctionDecl *> *ComputeCode;
    const FunctionDecl *Current = nullptr;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool TraverseDecl(Decl *D) {
      const FunctionDecl *Saved = Current;
      if (const auto *F = dyn_cast_or_null<FunctionDecl>(D))
        Current = F;
      RecursiveASTVisitor::TraverseDecl(D);
      Current = Saved;
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *L) {
      const FunctionDecl *Saved = Current;
      Current = L->getCallOperator();
      RecursiveASTVisitor::TraverseLambdaExpr(L);
      Current = Saved;
      return true;
    }
    /// E, an initialiser written in List, is read as a value there: the
    /// semantic form initialises its element with E's lvalue-to-rvalue
    /// conversion.
    static bool readsValueIn(const InitListExpr *List, const Stmt *E) {
      const InitListExpr *Semantic =
          List->isSyntacticForm() && List->getSemanticForm()
              ? List->getSemanticForm()
              : List;
      for (const Expr *Init : Semantic->inits()) {
        const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Init);
        if (Cast && Cast->getCastKind() == CK_LValueToRValue &&
            Cast->getSubExpr() == E)
          return true;
      }
      return false;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!isGlobalBufferVariable(V) || !V->getType()->isPointerType() ||
          Ctx->getSourceManager().isInSystemHeader(Ref->getLocation()))
        return true;
      const Stmt *S = Ref;
      const Stmt *P = nullptr;
      for (;;) {
        auto Parents = Ctx->getParents(*S);
        P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
        if (!isa_and_nonnull<ParenExpr>(P))
          break;
        S = P;
      }
      if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
          Cast && Cast->getCastKind() == CK_LValueToRValue)
        return true;
      // `Pair pr{cur, &b}`: the written form of a braced initialiser holds
      // the name itself; its semantic form, the value read from it.
      if (const auto *List = dyn_cast_or_null<InitListExpr>(P))
        if (readsValueIn(List, S))
          return true;
      const auto *Assign = dyn_cast_or_null<BinaryOperator>(P);
      bool Assigned = Assign && Assign->getOpcode() == BO_Assign &&
                      Assign->getLHS()->IgnoreParens() == Ref;
      if (Assigned && !(Current && ComputeCode->count(Current)))
        return true;
      reportError(*Ctx, Ref->getLocation(),
                  Assigned
                      ? "compute code may read the global buffer pointer '" +
                            V->getNameAsString() +
                            "' but not re-point it: Ferry takes it to name one "
                            "buffer through a whole compute; pass the buffer "
                            "as a parameter instead"
                      : "Ferry follows the global buffer pointer '" +
                            V->getNameAsString() +
                            "' by its name only: its address, or a reference "
                            "to it, could re-point it where Ferry does not "
                            "look; assign it directly, outside compute code");
      return true;
    }
  } Find;
  Find.Ctx = &Ctx;
  Find.ComputeCode = &ComputeCode;
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());

  std::set<const FunctionDecl *> Seen, WithStatic;
  for (const ReachableGraph &G : Graphs)
    for (const FunctionDecl *F : G.Functions) {
      if (!Seen.insert(F).second || !F->hasBody())
        continue;
      Check C;
      C.Ctx = &Ctx;
      C.Body = dyn_cast<CompoundStmt>(F->getBody());
      if (!C.Body)
        continue;
      C.TraverseStmt(F->getBody());
      if (C.StaticLocal && Planned.count(F))
        WithStatic.insert(F);
    }
  return WithStatic;
}
/// A planned function is rewritten where it is defined: in the main file,
/// or in a user header the main file includes directly, whose rewritten text
/// then replaces that #include (rewrite/HostRewriter.cpp). Anywhere else is
/// an error at its definition.
bool definedWhereRewritable(ASTContext &Ctx, const FunctionDecl *F) {
  SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(F->getLocation());
  if (SM.isWrittenInMainFile(Loc))
    return true;
  FileID Header = SM.getFileID(Loc);
  SourceLocation IncludedAt = SM.getIncludeLoc(Header);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Header);
  std::string Name =
      Entry ? llvm::sys::path::filename(Entry->getName()).str() : "";
  if (Entry && IncludedAt.isValid() && !SM.isInSystemHeader(Loc) &&
      SM.isWrittenInMainFile(SM.getExpansionLoc(IncludedAt)))
    return true;
  if (!Entry || IncludedAt.isInvalid() || SM.isInSystemHeader(Loc)) {
    reportError(Ctx, F->getLocation(),
                "compute function '" + F->getNameAsString() +
                    "' is defined outside the Ferry source and its own "
                    "headers, where Ferry cannot rewrite it");
    return false;
  }
  reportError(Ctx, F->getLocation(),
              "compute function '" + F->getNameAsString() + "' is defined in '" +
                  Name +
                  "', which the Ferry source includes only through another "
                  "header; Ferry rewrites a header's compute functions only "
                  "when the Ferry source includes it directly: add #include "
                  "\"" + Name + "\" to it before the header that includes it");
  return false;
}
} // namespace

ProgramPlan planProgram(ASTContext &Ctx, const TargetSummaries *Target) {
  ProgramPlan P;
  P.Model = collectProgram(Ctx);
  FunctionAccessCache Pointers;
  HostSummaryCache Host(Pointers);
  std::set<const FunctionDecl *> PlannedElsewhere;
  if (Target) {
    useTargetHostAccess(Host, *Target);
    PlannedElsewhere = plannedElsewhere(Ctx, *Target);
    Host.globals().setPlannedElsewhere(PlannedElsewhere);
  }

  for (const FunctionDecl *K : P.Model.Kernels) {
    P.KernelGraphs.push_back(kernelReachableGraph(K));
    P.Kernels[K] = analyzeKernelAccess(Ctx, K, Pointers);
  }
  // Every function between a compute function and a dispatch is host code
  // to plan: one that only calls a dispatching helper still reads and writes
  // buffers on the host between those calls. So is one between a compute
  // function or lambda and a function another Ferry source plans (a
  // template, an operator or a variadic helper here calling `body.step(cc)`
  // of another file, which that file's summary does not list).
  auto PlanCallers = [&](const ReachableGraph &G) {
    for (const FunctionDecl *F : G.Functions)
      if (F != G.Root &&
          (dispatchesDirectly(F) || callsAnyOf(F, PlannedElsewhere) ||
           callsUnseenWithContext(F)))
        P.Planned.insert(F);
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const CallEdge &E : G.Calls)
        if (E.Caller != G.Root && P.Planned.count(E.Callee) &&
            !P.Planned.count(E.Caller))
          Grew = P.Planned.insert(E.Caller).second || Grew;
    }
  };
  auto PlanGraph = [&](ReachableGraph G) {
    P.Planned.insert(G.Root);
    PlanCallers(G);
    P.ComputeGraphs.push_back(std::move(G));
  };
  for (const FunctionDecl *C : P.Model.ComputeFunctions)
    PlanGraph(computeReachableGraph(C));
  // A plain helper between a compute lambda and a planned function
  // (`drive(cc, sim)` calling `sim.step(cc)` twice, with host code between)
  // is host code to plan too, whether or not the lambda is planned itself.
  for (const FunctionDecl *Op : P.Model.ComputeLambdas) {
    ReachableGraph G = computeReachableGraph(Op);
    PlanCallers(G);
    if (plansLambda(G, P.Planned)) {
      P.Planned.insert(Op);
      P.ComputeGraphs.push_back(std::move(G));
    }
  }
  // The target's other Ferry sources call into this one, or are called.
  std::set<const FunctionDecl *> AllPlanned;
  if (Target) {
    for (const FunctionDecl *Op : P.Model.ComputeLambdas)
      if (!P.Planned.count(Op) && Target->planned(usrOf(Op))) {
        P.Planned.insert(Op);
        P.ComputeGraphs.push_back(computeReachableGraph(Op));
      }
    addTargetPlanned(Ctx, *Target, P.ComputeGraphs, P.Planned,
                     [&](const FunctionDecl *F) {
                       PlanGraph(computeReachableGraph(F));
                     });
    AllPlanned = PlannedElsewhere;
  }
  AllPlanned.insert(P.Planned.begin(), P.Planned.end());

  DispatchSites Sites;
  Sites.SM = &Ctx.getSourceManager();
  Sites.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (auto [Call, F] : Sites.Sites) {
    if (F && P.Planned.count(F))
      continue;
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(F);
    reportError(Ctx, Ctx.getSourceManager().getExpansionLoc(Call->getBeginLoc()),
                !F || (M && M->getParent()->isLambda())
                    ? "kernels are dispatched only from compute functions, "
                      "not from lambdas: move this dispatch into a "
                      "FERRY_COMPUTE function"
                    : "kernels are dispatched only from compute functions: "
                      "mark '" +
                          F->getNameAsString() +
                          "' FERRY_COMPUTE, or call it from one");
  }

  // A lambda inside compute code is not planned: a function that
  // dispatches, called from one, would run outside the plan around it.
  struct LambdaCalls : RecursiveASTVisitor<LambdaCalls> {
    ASTContext *Ctx;
    const std::set<const FunctionDecl *> *Planned;
    int Depth = 0;
    bool TraverseLambdaExpr(LambdaExpr *L) {
      bool Unplanned = !Planned->count(L->getCallOperator());
      Depth += Unplanned;
      RecursiveASTVisitor::TraverseLambdaExpr(L);
      Depth -= Unplanned;
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (Depth > 0 && F &&
          Planned->count(F->getDefinition() ? F->getDefinition() : F))
        reportError(*Ctx, Ctx->getSourceManager().getExpansionLoc(Call->getBeginLoc()),
                    "'" + F->getNameAsString() +
                        "' dispatches kernels, and a lambda inside compute "
                        "code calls it, which Ferry does not plan: call it "
                        "from the compute code itself");
      return true;
    }
  } Calls;
  Calls.Ctx = &Ctx;
  Calls.Planned = &AllPlanned;
  for (const FunctionDecl *F : P.Planned)
    if (F->hasBody())
      Calls.TraverseStmt(F->getBody());

  P.Entries = P.Planned;
  for (const FunctionDecl *F : P.Planned)
    for (auto [Site, Callee] : directCalls(F))
      if (P.Planned.count(Callee))
        P.Entries.erase(Callee);
  P.Internal = internalFunctions(Ctx, P.Planned);
  if (Target)
    adjustEntriesAndInternal(*Target, P.Planned, P.Entries, P.Internal);
  std::set<const FunctionDecl *> WithStatic =
      checkStaticBuffers(Ctx, P.ComputeGraphs, P.Planned);
  // A static buffer is named nowhere but in its function: that function
  // brings it home itself. So does a function another Ferry source calls
  // with the global buffers it reaches: its caller there may not name them
  // (a static of this file), nor know that the call touches them.
  for (auto It = P.Internal.begin(); It != P.Internal.end();)
    It = handsOnlyBuffers(*It) && !WithStatic.count(*It) &&
                 !(Target && Target->calledByPlannedElsewhere(usrOf(*It)) &&
                   !Host.globals().of(*It).Named.empty())
             ? std::next(It)
             : P.Internal.erase(It);

  P.DeadAfterCompute = buffersDeadAfterCompute(
      Ctx, P.Entries, Target ? targetKeepsNothing(*Target) : nullptr);
  if (Target)
    adjustDeadAfterCompute(*Target, P.Entries, P.DeadAfterCompute);
  // What the host leaves alone between computes stays on the device: the
  // compute keeps it, and the entry's plan starts it unknown there.
  P.KeptAtComputes =
      buffersKeptBetweenComputes(Ctx, AllPlanned, P.Entries, Host,
                                 &P.LeftOnDevice);
  P.MayStayOnDevice = mayStayOnDevice(P.KeptAtComputes);
  if (Target)
    adjustMayStayOnDevice(*Target, P.Entries, P.MayStayOnDevice);
  ComputeOnlyElsewhere Elsewhere;
  if (Target)
    Elsewhere = [Target](const FieldDecl *FD) {
      return Target->privateFieldUse(usrOf(FD), usrOf(FD->getParent()));
    };
  P.Members = computeOnlyMembers(Ctx, AllPlanned, Elsewhere);
  // A member only compute code names never comes home: a loop holding it
  // would bring it home at its end. (One this file's planned code does not
  // name, the other files' summaries judge.)
  for (LeftOnDeviceInLoop &L : P.LeftOnDevice)
    for (size_t I = L.Buffers.size(); I-- > 0;)
      if (llvm::any_of(L.Paths[I], [&](const FieldDecl *FD) {
            return P.Members.ComputeOnly.count(FD) != 0 ||
                   (Elsewhere && FD->getAccess() == AS_private &&
                    Elsewhere(FD) == OutsideUse::None);
          })) {
        L.Buffers.erase(L.Buffers.begin() + I);
        L.Paths.erase(L.Paths.begin() + I);
        L.Whole.erase(L.Whole.begin() + I);
        L.InElements.erase(L.InElements.begin() + I);
      }
  llvm::erase_if(P.LeftOnDevice, [](const LeftOnDeviceInLoop &L) {
    return L.Buffers.empty();
  });
  std::set<const FunctionDecl *> StartsCompute =
      startedOncePerCompute(Ctx, P.Model, P.Planned);
  PlanningContext PC{Ctx,      P.Kernels,         Host, AllPlanned,
                     P.DeadAfterCompute, P.MayStayOnDevice, P.Members,
                     {},       {},           &P.Internal, &StartsCompute};
  SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Ordered(P.Planned.begin(), P.Planned.end());
  std::sort(Ordered.begin(), Ordered.end(),
            [&](const FunctionDecl *A, const FunctionDecl *B) {
              return SM.isBeforeInTranslationUnit(A->getBeginLoc(),
                                                  B->getBeginLoc());
            });
  // Plans F; again when the plan found buffers its planned calls are handed
  // and it cannot name: its exits bring those home (PC.UnnamedAtExit), and
  // which they are is known only once the whole body is planned.
  auto planWithUnnamed = [&](const FunctionDecl *F) {
    auto UnnamedTypes = [&] {
      auto It = PC.UnnamedAtExit.find(F);
      return It == PC.UnnamedAtExit.end() ? size_t(0) : It->second.size();
    };
    size_t Unnamed = UnnamedTypes();
    FunctionPlan FP = planFunction(PC, F, P.Entries.count(F) != 0,
                                   P.Internal.count(F) != 0);
    if (UnnamedTypes() != Unnamed && !Ctx.getDiagnostics().hasErrorOccurred())
      FP = planFunction(PC, F, P.Entries.count(F) != 0,
                        P.Internal.count(F) != 0);
    return FP;
  };
  for (const FunctionDecl *F : Ordered) {
    if (const auto *M = dyn_cast<CXXMethodDecl>(F);
        M && M->isExplicitObjectMemberFunction()) {
      if (!isComputeFunction(F)) // (collectProgram reported those)
        rejectExplicitObject(Ctx, F, "dispatching function");
      continue;
    }
    if (F->getNumParams() == 0 ||
        !isComputeContextType(F->getParamDecl(0)->getType())) {
      reportError(Ctx, F->getLocation(),
                  "'" + F->getNameAsString() +
                      "' dispatches kernels, so it must take "
                      "'ferry::ComputeContext &' as its first parameter");
      continue;
    }
    if (!definedWhereRewritable(Ctx, F))
      continue;
    auto Table =
        std::make_shared<ObjectTable>(F, Host.globals().tableGlobals(F));
    PointsTo Facts = Table->entryPointsTo();
    P.Events[F] = collectHostEvents(F->getBody(), *Table, Facts, Host);
    P.Objects[F] = Table;
    P.Functions.push_back(planWithUnnamed(F));
  }
  // A caller handed an internal function a buffer it cannot name, so could
  // not bring it home itself: that function syncs at exit after all. Only
  // its own plan changes (its callers treat every planned call alike).
  for (FunctionPlan &FP : P.Functions)
    if (P.Internal.count(FP.Function) && PC.MustSyncAtExit.count(FP.Function)) {
      P.Internal.erase(FP.Function);
      FP = planWithUnnamed(FP.Function);
    }
  mergeTemplateInstances(Ctx, P.Functions);
  return P;
}

} // namespace ferry
