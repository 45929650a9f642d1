#include "plan/FileSummary.h"

#include "analyses/paths/ObjectTable.h"
#include "analyses/CallGraphs.h"
#include "analyses/lifetime/ComputeOnlyMembers.h"
#include "analyses/host/CallableReach.h"
#include "analyses/host/ElementRanges.h"
#include "analyses/lifetime/ExitLiveness.h"
#include "analyses/lifetime/HiddenWriters.h"
#include "analyses/paths/MemberSteps.h"
#include "analyses/paths/StaticRoots.h"
#include "analyses/host/HostAccess.h"
#include "analyses/lifetime/KeptBetweenComputes.h"
#include "analyses/lifetime/LeftOnDeviceInLoops.h"
#include "analyses/lifetime/MadeFresh.h"
#include "model/FerryTypes.h"
#include "parse/Annotations.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace ferry {

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Buf;
  if (index::generateUSRForDecl(D, Buf))
    return "";
  return std::string(Buf);
}

namespace {

bool declInSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// Functions a summary speaks for, and whose calls it records: free
/// functions (and static members) of the user's, called by name. A member
/// function's object, an operator's operands or a variadic tail are not
/// tied to parameters here, so those keep the rule for a call Ferry cannot
/// see in every file.
bool summarizable(const FunctionDecl *F) {
  if (!F || declInSystemHeader(F) || isRuntimeFunction(F) || F->isImplicit() ||
      F->isVariadic() || F->isOverloadedOperator() || F->isDependentContext() ||
      F->getTemplateSpecializationKind() != TSK_Undeclared)
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F))
    return M->isStatic();
  return true;
}

/// A member function of the user's with a body: summarised as a caller
/// only (a FERRY_COMPUTE member function calls helpers of other files).
bool isMemberCaller(const FunctionDecl *F) {
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  return M && !M->isStatic() && !declInSystemHeader(F) &&
         !isRuntimeFunction(F) && !F->isImplicit() &&
         !M->getParent()->isLambda() && !F->isDependentContext() &&
         F->getTemplateSpecializationKind() == TSK_Undeclared;
}

/// A member function of the user's, called on an object: its calls are
/// recorded like a free function's (which file calls it, from planned code
/// or not), and so are its effects on its explicit parameters; those on its
/// object are its summary's `members`. Its object's members a caller cannot
/// name, a planned caller brings home itself, through the run-time state
/// (plan/TransferFunction.cpp).
bool isMemberCallee(const FunctionDecl *F) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(F);
  return M && !M->isStatic() && !declInSystemHeader(F) &&
         !isRuntimeFunction(F) && !F->isImplicit() &&
         !M->getParent()->isLambda() && !F->isOverloadedOperator() &&
         !F->isVariadic() && !F->isDependentContext() &&
         F->getTemplateSpecializationKind() == TSK_Undeclared;
}

/// The caller's parameter an argument names (`x`, `&x`, `*x`), or -1.
int parameterNamed(const Expr *Arg, const FunctionDecl *Caller) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      for (unsigned I = 0; I < Caller->getNumParams(); ++I)
        if (Caller->getParamDecl(I) == P)
          return static_cast<int>(I);
  return -1;
}

/// A struct holding its buffers by value in public members, to any depth
/// (`struct Grid { Buffer<float> cur, next; }`): a caller names each of
/// them through the local it is (`g.cur`), as within one file.
bool namesEveryBufferMember(QualType T, int Depth) {
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Depth > 4 || RD->isInStdNamespace() ||
      isa<ClassTemplateSpecializationDecl>(RD) || RD->getNumBases() != 0)
    return false;
  bool Any = false;
  for (const FieldDecl *FD : RD->fields()) {
    QualType FT = FD->getType();
    if (!holdsBuffers(FT))
      continue;
    if (FD->getAccess() != AS_public ||
        !(isBufferType(FT) || namesEveryBufferMember(FT, Depth + 1)))
      return false;
    Any = true;
  }
  return Any;
}

/// A local buffer variable of the caller (`b`, `&b`), or a buffer member of
/// its object (`pos_`, `this->pos_`): a name it can bring home.
bool namesLocalBuffer(const Expr *Arg) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
           isa<FieldDecl>(ME->getMemberDecl()) && isBufferType(ME->getType());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // `Buffer<T> *grid[2]`: the caller names what each element points to.
  return V && !isa<ParmVarDecl>(V) && V->hasLocalStorage() &&
         (isBufferType(V->getType()) || isBufferPointerArray(V->getType()) ||
          namesEveryBufferMember(V->getType(), 0));
}

/// A path of public members from a parameter, a local or `this` (`m.grid`,
/// `p->grid.cur`, `grid_`) to a buffer or to a struct whose buffers a caller
/// names (namesEveryBufferMember): the caller's plan names every buffer it
/// hands over, as within one file. (Its effects still reach the caller's
/// callers only through the caller's own summary: the call stays untied.)
bool namesMemberPath(const Expr *Arg, const FunctionDecl *Caller) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  QualType T = E->getType().getNonReferenceType();
  if (!isBufferType(T) && !namesEveryBufferMember(T, 0))
    return false;
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME)
    return false;
  while (ME) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || (FD->getAccess() != AS_public &&
                !(isa<CXXMethodDecl>(Caller) &&
                  cast<CXXMethodDecl>(Caller)->getParent() == FD->getParent())))
      return false;
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base))
      return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      return V && (isa<ParmVarDecl>(V) || V->hasLocalStorage());
    }
    ME = dyn_cast<MemberExpr>(Base);
  }
  return false;
}

/// Whether an argument can reach buffer elements at all.
bool mayReachBuffers(const Expr *Arg) {
  QualType T = Arg->getType();
  return refersToBuffer(T) || holdsBuffers(T.getNonReferenceType()) ||
         T->isPointerType() || Arg->isGLValue();
}

bool isConstParameter(QualType T) {
  if (T->isReferenceType())
    return T.getNonReferenceType().isConstQualified();
  if (T->isPointerType())
    return T->getPointeeType().isConstQualified();
  return true; // by value: a copy
}

/// Direct calls in one function's body (lambdas are functions of their
/// own, or other uses), and every other use of a function.
struct CallsOf : RecursiveASTVisitor<CallsOf> {
  const FunctionDecl *Current = nullptr;
  std::vector<SummaryCall> Calls;
  bool Untied = false;
  std::set<const Expr *> Callees;
  std::set<const FunctionDecl *> *OtherUses = nullptr;
  const std::vector<const FunctionDecl *> *ComputeLambdas = nullptr;

  bool TraverseLambdaExpr(LambdaExpr *L) {
    // A lambda given to acc.compute is summarised as a function of its own.
    if (llvm::is_contained(*ComputeLambdas, L->getCallOperator()))
      return true;
    // Anything named inside a lambda is used from outside the function.
    struct Named : RecursiveASTVisitor<Named> {
      std::set<const FunctionDecl *> *Out;
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
          Out->insert(F);
        return true;
      }
      bool VisitMemberExpr(MemberExpr *ME) {
        if (const auto *F = dyn_cast<FunctionDecl>(ME->getMemberDecl()))
          Out->insert(F);
        return true;
      }
    } N;
    N.Out = OtherUses;
    N.TraverseStmt(L->getBody());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!(summarizable(Callee) ||
          (isa<CXXMemberCallExpr>(Call) && isMemberCallee(Callee))) ||
        isDispatchCall(Call))
      return true;
    Callees.insert(Call->getCallee()->IgnoreParenImpCasts());
    SummaryCall C;
    C.Callee = usrOf(Callee);
    C.CalleeName = Callee->getQualifiedNameAsString();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      QualType ParamType = I < Callee->getNumParams()
                               ? Callee->getParamDecl(I)->getType()
                               : Arg->getType();
      bool ByValue = !ParamType->isReferenceType() &&
                     !ParamType->isPointerType() && !holdsBuffers(ParamType);
      int P = ByValue ? -1 : parameterNamed(Arg, Current);
      C.Args.push_back(P);
      C.Unseen.push_back(isConstParameter(ParamType) ? Access::Read
                                                     : Access::ReadWrite);
      if (ByValue || P >= 0 || namesLocalBuffer(Arg))
        continue;
      if (mayReachBuffers(Arg)) {
        // Reaches buffers by a name that is not a parameter nor a local
        // buffer (an alias, an element, data()): this function's callers
        // cannot tie the callee's effects to their own arguments.
        if ((refersToBuffer(Arg->getType()) ||
             holdsBuffers(Arg->getType().getNonReferenceType())) &&
            !namesMemberPath(Arg, Current))
          C.ExactArgs = false;
        Untied = true;
      }
    }
    Calls.push_back(std::move(C));
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
        F && !Callees.count(Ref))
      OtherUses->insert(F);
    return true;
  }
};

/// Each of F's parameters named in a range's text as `__ferry_param_N`;
/// false when the text names something else (it then means nothing in
/// another file).
bool renameParams(std::string &Text, const FunctionDecl *F) {
  std::map<std::string, std::string> Names;
  for (unsigned I = 0; I < F->getNumParams(); ++I)
    if (!F->getParamDecl(I)->getName().empty())
      Names[F->getParamDecl(I)->getNameAsString()] =
          "__ferry_param_" + std::to_string(I);
  return substituteNames(Text, Names);
}

/// A lambda given to `acc.compute` whose body is one call: its callee.
const FunctionDecl *singleCallee(const FunctionDecl *Op) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Op->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *E = dyn_cast<Expr>(Body->body_front());
  const auto *Call = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
  return Call ? Call->getDirectCallee() : nullptr;
}

/// The buffers F is handed that only kernels use in it: a buffer
/// reference parameter, the buffers inside an object it is handed by
/// reference or pointer, and its own object's.
std::vector<KernelOnlyPath> kernelOnlyPaths(const FunctionDecl *F) {
  std::vector<KernelOnlyPath> Out;
  auto Record = [&](int Param, const ValueDecl *Root, const FieldPath &Path) {
    KernelUse Use = usedOnlyByKernels(F->getBody(), Root, Path);
    if (!Use.OnlyKernels)
      return;
    KernelOnlyPath P;
    P.Param = Param;
    P.Written = Use.Written;
    for (const FieldDecl *FD : Path)
      P.Path.push_back(usrOf(FD));
    Out.push_back(std::move(P));
  };
  auto Object = [&](int Param, const ValueDecl *Root, const CXXRecordDecl *RD) {
    if (!RD || !RD->hasDefinition() || RD->isInStdNamespace())
      return;
    for (const FieldPath &Path : bufferPathsOf(RD))
      if (!isOpaquePath(Path) && isBufferType(Path.back()->getType()))
        Record(Param, Root, Path);
  };
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    QualType T = P->getType();
    if (T->isLValueReferenceType() && isBufferType(T.getNonReferenceType()))
      Record(static_cast<int>(I), P, {});
    else if (T->isLValueReferenceType() || T->isPointerType())
      Object(static_cast<int>(I), P,
             (T->isPointerType() ? T->getPointeeType()
                                 : T.getNonReferenceType())
                 ->getAsCXXRecordDecl());
  }
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && M->isInstance() && !isa<CXXConstructorDecl>(M) &&
      !isa<CXXDestructorDecl>(M))
    Object(-1, nullptr, M->getParent());
  return Out;
}

} // namespace

static std::vector<PolymorphicHolder> polymorphicHolders(ASTContext &Ctx) {
  struct Classes : RecursiveASTVisitor<Classes> {
    const SourceManager *SM;
    std::vector<const CXXRecordDecl *> Found;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
      if (RD->isThisDeclarationADefinition() && !RD->isDependentType() &&
          !RD->isLambda() && RD->isPolymorphic() &&
          !SM->isInSystemHeader(RD->getLocation()))
        Found.push_back(RD);
      return true;
    }
  } Find;
  Find.SM = &Ctx.getSourceManager();
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<PolymorphicHolder> Out;
  for (const CXXRecordDecl *RD : Find.Found) {
    PolymorphicHolder H;
    H.Class = usrOf(RD);
    auto Hold = [&](const CXXRecordDecl *C) {
      std::vector<std::string> &Spellings = H.Holds[usrOf(C)];
      for (QualType Element : ownBufferElements(C))
        Spellings.push_back(Element.isNull() ? "*" : elementSpelling(Element));
      if (Spellings.empty())
        H.Holds.erase(usrOf(C));
    };
    Hold(RD);
    RD->forallBases([&](const CXXRecordDecl *B) {
      H.Bases.push_back(usrOf(B));
      Hold(B);
      return true;
    });
    std::sort(H.Bases.begin(), H.Bases.end());
    H.Bases.erase(std::unique(H.Bases.begin(), H.Bases.end()), H.Bases.end());
    if (!H.Holds.empty() && !H.Bases.empty())
      Out.push_back(std::move(H));
  }
  return Out;
}

FileSummary summarizeFile(ASTContext &Ctx, llvm::StringRef Source) {
  FileSummary S;
  S.Source = Source.str();
  ProgramModel Model = collectProgram(Ctx);

  // Every function with a body in the unit, the main file's and its
  // headers' (an inline helper in a header may call into another file).
  // Declared: the compute functions this file may start without planning
  // them, for dead_after_compute. A compute function inline in a header is
  // planned in every file that includes it, and each copy must skip the
  // same copies back, so every file records what its own starts of it
  // leave dead (TargetSummaries::deadAnywhere).
  struct Bodies : RecursiveASTVisitor<Bodies> {
    const SourceManager *SM = nullptr;
    std::vector<const FunctionDecl *> Found, Declared;
    bool shouldVisitLambdaExpressions() const { return false; }
    bool VisitFunctionDecl(FunctionDecl *F) {
      if (F->doesThisDeclarationHaveABody() && !isKernel(F) &&
          (summarizable(F) || isMemberCaller(F)))
        Found.push_back(F);
      if (!F->getDefinition() && summarizable(F) && F->isFirstDecl())
        Declared.push_back(F);
      else if (F->isThisDeclarationADefinition() && summarizable(F) &&
               isComputeFunction(F) &&
               !SM->isWrittenInMainFile(SM->getExpansionLoc(F->getLocation())))
        Declared.push_back(F);
      return true;
    }
  } Find;
  Find.SM = &Ctx.getSourceManager();
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<std::pair<const FunctionDecl *, bool>> Functions;
  for (const FunctionDecl *F : Find.Found)
    Functions.emplace_back(F, false);
  for (const FunctionDecl *Op : Model.ComputeLambdas)
    Functions.emplace_back(Op, true);

  // Local facts: a call to a function without a body here adds nothing;
  // the reader adds what that function's own summary says.
  FunctionAccessCache Pointers;
  HostSummaryCache Host(Pointers);
  std::map<const FunctionDecl *, std::vector<Access>> Nothing;
  Host.Elsewhere = [&](const FunctionDecl *F) -> const std::vector<Access> * {
    if (!summarizable(F))
      return nullptr;
    return &Nothing.try_emplace(F, F->getNumParams(), Access::None)
                .first->second;
  };

  // A member function's effects on its object, by the contract's rule for
  // calls without a body here: the reader composes no member paths.
  HostSummaryCache ByContract(Pointers);

  std::set<const FunctionDecl *> OtherUses;
  for (auto [F, IsLambda] : Functions) {
    FunctionSummary FS;
    FS.Usr = usrOf(F);
    FS.Name = IsLambda ? "lambda given to acc.compute"
                       : F->getQualifiedNameAsString();
    FS.External = !IsLambda && F->isExternallyVisible();
    FS.Compute = !IsLambda && isComputeFunction(F);
    FS.Lambda = IsLambda;
    if (IsLambda)
      if (const FunctionDecl *C = singleCallee(F))
        FS.SingleCallee = usrOf(C);
    FS.Dispatches = dispatchesDirectly(F);
    FS.Params = Host.summary(F);
    FS.Ranges = Host.ranges(F);
    if (!IsLambda)
      for (unsigned I = 0; I < F->getNumParams(); ++I)
        if (refersToBuffer(F->getParamDecl(I)->getType()) &&
            parameterKeepsNothing(Ctx, F, I))
          FS.KeepsNothing.push_back(I);
    // A pointer it returns into an argument, or a global buffer it names,
    // reaches buffers its caller's plan cannot follow from the parameters.
    FS.Opaque = !Pointers.returnsInto(F).empty() ||
                !Host.globals().of(F).Named.empty();
    CallsOf Calls;
    Calls.Current = F;
    Calls.OtherUses = &OtherUses;
    Calls.ComputeLambdas = &Model.ComputeLambdas;
    Calls.TraverseStmt(F->getBody());
    FS.Calls = std::move(Calls.Calls);
    if (!IsLambda && FS.External)
      FS.KernelOnly = kernelOnlyPaths(F);
    FS.Ranges.resize(F->getNumParams());
    for (unsigned I = 0; I < F->getNumParams(); ++I) {
      std::optional<ElementRange> &R = FS.Ranges[I];
      for (const SummaryCall &C : FS.Calls)
        if (llvm::is_contained(C.Args, static_cast<int>(I)))
          R.reset();
      if (R && !(renameParams(R->First, F) && renameParams(R->Count, F)))
        R.reset();
    }
    // A member function's explicit parameters are tied like a free
    // function's; its object's members, which no parameter names, are
    // recorded by path (`members`). An operator's operands are not tied.
    FS.Opaque = FS.Opaque || Calls.Untied ||
                !(summarizable(F) || isMemberCallee(F));
    if (const auto *M = dyn_cast<CXXMethodDecl>(F);
        M && !IsLambda && M->isInstance() && !isa<CXXConstructorDecl>(M) &&
        !isa<CXXDestructorDecl>(M)) {
      std::vector<MemberPathAccess> Members;
      for (const auto &[Path, Mode] : ByContract.memberSummary(M, false)) {
        if (Mode == Access::None)
          continue;
        MemberPathAccess P;
        for (const FieldDecl *FD : Path)
          P.Path.push_back(usrOf(FD));
        P.Mode = Mode;
        P.Escapes = ByContract.memberEscapes(M, Path);
        Members.push_back(std::move(P));
      }
      std::sort(Members.begin(), Members.end(),
                [](const MemberPathAccess &A, const MemberPathAccess &B) {
                  return A.Path < B.Path;
                });
      FS.Members = std::move(Members);
    }
    // What running it may run: the functions without a body here go to the
    // reader, which knows whether another file's summary describes them.
    std::set<std::string> Elsewhere;
    HiddenCode Hidden;
    Hidden.Elsewhere = [&](const FunctionDecl *Callee) {
      Elsewhere.insert(usrOf(Callee));
      return false;
    };
    FS.RunsHidden = Hidden.reaches(F) || !Host.globals().of(F).Named.empty();
    FS.RunsElsewhere.assign(Elsewhere.begin(), Elsewhere.end());
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
      FS.MakesFresh = constructorMakesFresh(Ctor);
    S.Functions.push_back(std::move(FS));
  }
  std::set<std::string> Uses;
  for (const FunctionDecl *F : OtherUses)
    if ((summarizable(F) || isMemberCallee(F)) && !isKernel(F))
      Uses.insert(usrOf(F));
  S.OtherUses.assign(Uses.begin(), Uses.end());

  // Compute functions of other files this file starts computes with: which
  // of their parameters its callers never use again.
  std::set<const FunctionDecl *> Declared;
  for (const FunctionDecl *F : Find.Declared)
    for (const FunctionDecl *R : F->redecls())
      Declared.insert(R);
  std::set<std::pair<std::string, unsigned>> Assumes;
  auto Assume = [&](const FunctionDecl *F, unsigned Index) {
    Assumes.emplace(usrOf(F), Index);
    return true;
  };
  for (const auto &[F, Dead] : buffersDeadAfterCompute(Ctx, Declared, Assume)) {
    std::vector<unsigned> &Params = S.DeadAfterCompute[usrOf(F)];
    for (const ValueDecl *P : Dead)
      if (const auto *PV = dyn_cast<ParmVarDecl>(P))
        Params.push_back(PV->getFunctionScopeIndex());
    std::sort(Params.begin(), Params.end());
  }
  S.DeadAssumes.assign(Assumes.begin(), Assumes.end());

  // The parameters of compute functions that this file's computes keep on
  // the device. A call Ferry cannot see counts by the contract's rule here,
  // not by another file's summary: this may keep less than the rewrite,
  // never more than it may.
  std::set<const FunctionDecl *> Starts;
  for (const FunctionDecl *F : Declared)
    Starts.insert(F);
  for (const FunctionDecl *F : Model.ComputeFunctions)
    Starts.insert(F);
  HostSummaryCache Unseen(Pointers);
  for (const KeptAtCompute &K :
       buffersKeptBetweenComputes(Ctx, {}, Starts, Unseen)) {
    if (!K.Callee || !summarizable(K.Callee))
      continue;
    std::vector<unsigned> &Params = S.KeptOnDevice[usrOf(K.Callee)];
    for (int P : K.Params)
      if (P >= 0 && !llvm::is_contained(Params, static_cast<unsigned>(P)))
        Params.push_back(static_cast<unsigned>(P));
    std::sort(Params.begin(), Params.end());
  }

  // Private buffer fields, judged with this file's planned functions alone
  // (a host helper's callers may be in other files).
  std::set<const FunctionDecl *> LocalPlanned;
  for (const FunctionDecl *F : Find.Found)
    if (isComputeFunction(F) || dispatchesDirectly(F))
      LocalPlanned.insert(F);
  PrivateFieldFacts Private = privateFieldFacts(Ctx, LocalPlanned);
  for (const PrivateFieldFacts::Field &F : Private.Fields)
    S.PrivateFields.push_back(
        {usrOf(F.Decl), usrOf(F.Decl->getParent()), F.Outside,
         F.OutsideWrites});
  S.CastsAwayConst = Private.CastsAwayConst;
  for (const PrivateFieldFacts::Class &C : Private.Classes) {
    ClassMethods M;
    M.Class = usrOf(C.Decl);
    M.Open = C.Open;
    for (const CXXMethodDecl *D : C.Declared)
      M.Declared.push_back(usrOf(D));
    for (const CXXMethodDecl *D : C.Defined)
      M.Defined.push_back(usrOf(D));
    S.Classes.push_back(std::move(M));
  }
  S.PolymorphicHolders = polymorphicHolders(Ctx);
  S.CallableElements.clear();
  for (const CallableReach &C : callablesReachingBuffers(Ctx))
    for (QualType Element : C.Elements) {
      std::string Spelling = Element.isNull() ? "*" : elementSpelling(Element);
      if (!llvm::is_contained(S.CallableElements, Spelling))
        S.CallableElements.push_back(Spelling);
    }
  llvm::sort(S.CallableElements);
  PointerPlaceTypes Places = pointerPlaceTypes(Ctx);
  S.PointerWrites = std::move(Places.Writes);
  S.PointerReads = std::move(Places.Reads);
  S.GlobalBuffers = Places.GlobalBuffers;
  return S;
}

// --- JSON --------------------------------------------------------------------

static llvm::StringRef accessKey(Access A) {
  switch (A) {
  case Access::None:
    return "none";
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "read-write";
  }
  return "none";
}

static std::optional<Access> accessFromKey(llvm::StringRef K) {
  for (Access A : {Access::None, Access::Read, Access::Write, Access::ReadWrite})
    if (K == accessKey(A))
      return A;
  return std::nullopt;
}

llvm::json::Value toJSON(const FileSummary &S) {
  llvm::json::Array Functions;
  for (const FunctionSummary &F : S.Functions) {
    llvm::json::Array Params, Calls;
    for (Access A : F.Params)
      Params.push_back(accessKey(A));
    for (const SummaryCall &C : F.Calls) {
      llvm::json::Array Args, Unseen;
      for (int A : C.Args)
        Args.push_back(A);
      for (Access A : C.Unseen)
        Unseen.push_back(accessKey(A));
      llvm::json::Object O{{"callee", C.Callee},
                           {"name", C.CalleeName},
                           {"args", std::move(Args)},
                           {"unseen", std::move(Unseen)}};
      if (!C.ExactArgs)
        O["exact"] = false;
      Calls.push_back(std::move(O));
    }
    llvm::json::Object O{{"usr", F.Usr},
                         {"name", F.Name},
                         {"params", std::move(Params)},
                         {"calls", std::move(Calls)}};
    // Only what is true, to keep the file small.
    for (auto [Key, Value] : {std::pair{"external", F.External},
                              {"compute", F.Compute},
                              {"lambda", F.Lambda},
                              {"dispatches", F.Dispatches},
                              {"opaque", F.Opaque},
                              {"makes_fresh", F.MakesFresh}})
      if (Value)
        O[Key] = true;
    if (!F.SingleCallee.empty())
      O["single_callee"] = F.SingleCallee;
    if (llvm::any_of(F.Ranges, [](const auto &R) { return R.has_value(); })) {
      llvm::json::Array Ranges;
      for (const std::optional<ElementRange> &R : F.Ranges)
        if (R)
          Ranges.push_back(llvm::json::Object{
              {"first", R->First}, {"count", R->Count}, {"covers", R->Covers}});
        else
          Ranges.push_back(nullptr);
      O["ranges"] = std::move(Ranges);
    }
    if (!F.KeepsNothing.empty()) {
      llvm::json::Array K;
      for (unsigned I : F.KeepsNothing)
        K.push_back(I);
      O["keeps_nothing"] = std::move(K);
    }
    if (!F.KernelOnly.empty()) {
      llvm::json::Array K;
      for (const KernelOnlyPath &P : F.KernelOnly)
        K.push_back(llvm::json::Object{
            {"param", P.Param},
            {"path", llvm::json::Array(P.Path)},
            {"written", P.Written}});
      O["kernel_only"] = std::move(K);
    }
    if (F.Members) {
      llvm::json::Array M;
      for (const MemberPathAccess &P : *F.Members)
        M.push_back(llvm::json::Object{{"path", llvm::json::Array(P.Path)},
                                       {"access", accessKey(P.Mode)},
                                       {"escapes", P.Escapes}});
      O["members"] = std::move(M);
    }
    O["runs"] = llvm::json::Object{
        {"hidden", F.RunsHidden},
        {"elsewhere", llvm::json::Array(F.RunsElsewhere)}};
    Functions.push_back(std::move(O));
  }
  llvm::json::Array Uses;
  for (const std::string &U : S.OtherUses)
    Uses.push_back(U);
  llvm::json::Array Assumed;
  for (const auto &[Usr, I] : S.DeadAssumes)
    Assumed.push_back(llvm::json::Array{Usr, I});
  llvm::json::Object Dead;
  for (const auto &[Usr, Params] : S.DeadAfterCompute) {
    llvm::json::Array A;
    for (unsigned P : Params)
      A.push_back(P);
    Dead[Usr] = std::move(A);
  }
  llvm::json::Array Private;
  for (const PrivateFieldUse &F : S.PrivateFields)
    Private.push_back(llvm::json::Object{{"field", F.Field},
                                         {"class", F.Class},
                                         {"outside", F.Outside},
                                         {"outside_writes", F.OutsideWrites}});
  llvm::json::Array Classes;
  for (const ClassMethods &M : S.Classes) {
    llvm::json::Array Declared, Defined;
    for (const std::string &U : M.Declared)
      Declared.push_back(U);
    for (const std::string &U : M.Defined)
      Defined.push_back(U);
    Classes.push_back(llvm::json::Object{{"class", M.Class},
                                         {"declared", std::move(Declared)},
                                         {"defined", std::move(Defined)},
                                         {"open", M.Open}});
  }
  llvm::json::Array Holders;
  for (const PolymorphicHolder &H : S.PolymorphicHolders) {
    llvm::json::Object Holds;
    for (const auto &[Class, Elements] : H.Holds)
      Holds[Class] = llvm::json::Array(Elements);
    Holders.push_back(llvm::json::Object{{"class", H.Class},
                                         {"bases", llvm::json::Array(H.Bases)},
                                         {"holds", std::move(Holds)}});
  }
  llvm::json::Object Kept;
  for (const auto &[Usr, Params] : S.KeptOnDevice) {
    llvm::json::Array A;
    for (unsigned P : Params)
      A.push_back(P);
    Kept[Usr] = std::move(A);
  }
  return llvm::json::Object{{"ferry_summary", FileSummaryVersion},
                            {"source", S.Source},
                            {"functions", std::move(Functions)},
                            {"other_uses", std::move(Uses)},
                            {"dead_after_compute", std::move(Dead)},
                            {"dead_assumes", std::move(Assumed)},
                            {"kept_on_device", std::move(Kept)},
                            {"private_fields", std::move(Private)},
                            {"casts_away_const", S.CastsAwayConst},
                            {"classes", std::move(Classes)},
                            {"pointer_places",
                             llvm::json::Object{
                                 {"writes", llvm::json::Array(S.PointerWrites)},
                                 {"reads", llvm::json::Array(S.PointerReads)}}},
                            {"global_buffers", S.GlobalBuffers},
                            {"polymorphic_buffers", std::move(Holders)},
                            {"callable_buffers",
                             llvm::json::Array(S.CallableElements)}};
}

std::optional<FileSummary> summaryFromJSON(const llvm::json::Value &V,
                                           std::string &Error) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O || O->getInteger("ferry_summary") != FileSummaryVersion) {
    Error = "not a Ferry summary of version " +
            std::to_string(FileSummaryVersion) + " (written by another ferry?)";
    return std::nullopt;
  }
  FileSummary S;
  Error = "malformed summary";
  if (auto Source = O->getString("source"))
    S.Source = Source->str();
  const llvm::json::Array *Functions = O->getArray("functions");
  if (!Functions)
    return std::nullopt;
  for (const llvm::json::Value &FV : *Functions) {
    const llvm::json::Object *FO = FV.getAsObject();
    if (!FO || !FO->getString("usr"))
      return std::nullopt;
    FunctionSummary F;
    F.Usr = FO->getString("usr")->str();
    F.Name = FO->getString("name").value_or("").str();
    F.External = FO->getBoolean("external").value_or(false);
    F.Compute = FO->getBoolean("compute").value_or(false);
    F.Lambda = FO->getBoolean("lambda").value_or(false);
    F.Dispatches = FO->getBoolean("dispatches").value_or(false);
    F.Opaque = FO->getBoolean("opaque").value_or(false);
    F.MakesFresh = FO->getBoolean("makes_fresh").value_or(false);
    F.SingleCallee = FO->getString("single_callee").value_or("").str();
    if (const llvm::json::Array *K = FO->getArray("keeps_nothing"))
      for (const llvm::json::Value &I : *K)
        if (auto N = I.getAsInteger())
          F.KeepsNothing.push_back(static_cast<unsigned>(*N));
    if (const llvm::json::Array *K = FO->getArray("kernel_only"))
      for (const llvm::json::Value &V : *K) {
        const llvm::json::Object *PO = V.getAsObject();
        const llvm::json::Array *Path = PO ? PO->getArray("path") : nullptr;
        std::optional<int64_t> Param = PO ? PO->getInteger("param") : std::nullopt;
        if (!Path || !Param)
          continue;
        KernelOnlyPath P;
        P.Param = static_cast<int>(*Param);
        P.Written = PO->getBoolean("written").value_or(true);
        for (const llvm::json::Value &M : *Path)
          if (std::optional<llvm::StringRef> U = M.getAsString())
            P.Path.push_back(U->str());
        if (P.Path.size() == Path->size()) // (else not a path of members)
          F.KernelOnly.push_back(std::move(P));
      }
    if (const llvm::json::Array *M = FO->getArray("members")) {
      F.Members.emplace();
      for (const llvm::json::Value &V : *M) {
        const llvm::json::Object *PO = V.getAsObject();
        const llvm::json::Array *Path = PO ? PO->getArray("path") : nullptr;
        std::optional<llvm::StringRef> Key =
            PO ? PO->getString("access") : std::nullopt;
        std::optional<Access> Mode = Key ? accessFromKey(*Key) : std::nullopt;
        if (!Path || !Mode)
          return std::nullopt;
        MemberPathAccess P;
        P.Mode = *Mode;
        P.Escapes = PO->getBoolean("escapes").value_or(true);
        for (const llvm::json::Value &U : *Path)
          if (std::optional<llvm::StringRef> Str = U.getAsString())
            P.Path.push_back(Str->str());
        if (P.Path.size() != Path->size())
          return std::nullopt;
        F.Members->push_back(std::move(P));
      }
    }
    // Absent from an older summary: it may run anything.
    if (const llvm::json::Object *Runs = FO->getObject("runs")) {
      F.RunsHidden = Runs->getBoolean("hidden").value_or(true);
      if (const llvm::json::Array *E = Runs->getArray("elsewhere"))
        for (const llvm::json::Value &U : *E)
          if (std::optional<llvm::StringRef> Str = U.getAsString())
            F.RunsElsewhere.push_back(Str->str());
    }
    if (const llvm::json::Array *Ranges = FO->getArray("ranges"))
      for (const llvm::json::Value &R : *Ranges) {
        const llvm::json::Object *RO = R.getAsObject();
        if (!RO || !RO->getString("first") || !RO->getString("count")) {
          F.Ranges.emplace_back();
          continue;
        }
        ElementRange E;
        E.First = RO->getString("first")->str();
        E.Count = RO->getString("count")->str();
        E.Covers = RO->getBoolean("covers").value_or(false);
        F.Ranges.push_back(std::move(E));
      }
    if (const llvm::json::Array *Params = FO->getArray("params"))
      for (const llvm::json::Value &P : *Params) {
        auto A = P.getAsString() ? accessFromKey(*P.getAsString()) : std::nullopt;
        if (!A)
          return std::nullopt;
        F.Params.push_back(*A);
      }
    if (const llvm::json::Array *Calls = FO->getArray("calls"))
      for (const llvm::json::Value &CV : *Calls) {
        const llvm::json::Object *CO = CV.getAsObject();
        if (!CO || !CO->getString("callee"))
          return std::nullopt;
        SummaryCall C;
        C.Callee = CO->getString("callee")->str();
        C.CalleeName = CO->getString("name").value_or("").str();
        C.ExactArgs = CO->getBoolean("exact").value_or(true);
        if (const llvm::json::Array *Args = CO->getArray("args"))
          for (const llvm::json::Value &A : *Args)
            C.Args.push_back(static_cast<int>(A.getAsInteger().value_or(-1)));
        if (const llvm::json::Array *Unseen = CO->getArray("unseen"))
          for (const llvm::json::Value &U : *Unseen) {
            auto A = U.getAsString() ? accessFromKey(*U.getAsString())
                                     : std::nullopt;
            C.Unseen.push_back(A.value_or(Access::ReadWrite));
          }
        if (C.Unseen.size() != C.Args.size())
          return std::nullopt;
        F.Calls.push_back(std::move(C));
      }
    S.Functions.push_back(std::move(F));
  }
  if (const llvm::json::Array *Uses = O->getArray("other_uses"))
    for (const llvm::json::Value &U : *Uses)
      if (auto Str = U.getAsString())
        S.OtherUses.push_back(Str->str());
  if (const llvm::json::Object *Dead = O->getObject("dead_after_compute"))
    for (const auto &[Usr, Params] : *Dead) {
      std::vector<unsigned> &Out = S.DeadAfterCompute[Usr.str()];
      if (const llvm::json::Array *A = Params.getAsArray())
        for (const llvm::json::Value &P : *A)
          if (auto I = P.getAsInteger())
            Out.push_back(static_cast<unsigned>(*I));
    }
  if (const llvm::json::Object *Kept = O->getObject("kept_on_device"))
    for (const auto &[Usr, Params] : *Kept) {
      std::vector<unsigned> &Out = S.KeptOnDevice[Usr.str()];
      if (const llvm::json::Array *A = Params.getAsArray())
        for (const llvm::json::Value &P : *A)
          if (auto I = P.getAsInteger())
            Out.push_back(static_cast<unsigned>(*I));
    }
  // Optional (a summary without them knows of no private field).
  auto Strings = [](const llvm::json::Array *A) {
    std::vector<std::string> Out;
    if (A)
      for (const llvm::json::Value &V : *A)
        if (auto Str = V.getAsString())
          Out.push_back(Str->str());
    return Out;
  };
  if (const llvm::json::Array *Private = O->getArray("private_fields"))
    for (const llvm::json::Value &V : *Private)
      if (const llvm::json::Object *F = V.getAsObject()) {
        const bool Outside = F->getBoolean("outside").value_or(true);
        // An older summary without the field: every outside use may write.
        S.PrivateFields.push_back(
            {F->getString("field").value_or("").str(),
             F->getString("class").value_or("").str(), Outside,
             F->getBoolean("outside_writes").value_or(Outside)});
      }
  // An older summary without the field: it may cast const away.
  S.CastsAwayConst = O->getBoolean("casts_away_const").value_or(true);
  // Absent from an older summary: its places may reach any type.
  if (const llvm::json::Object *Places = O->getObject("pointer_places")) {
    S.PointerWrites = Strings(Places->getArray("writes"));
    S.PointerReads = Strings(Places->getArray("reads"));
  }
  S.GlobalBuffers = O->getBoolean("global_buffers").value_or(true);
  if (const llvm::json::Array *Callables = O->getArray("callable_buffers"))
    S.CallableElements = Strings(Callables);
  if (const llvm::json::Array *Holders = O->getArray("polymorphic_buffers"))
    for (const llvm::json::Value &V : *Holders)
      if (const llvm::json::Object *H = V.getAsObject()) {
        PolymorphicHolder P;
        P.Class = H->getString("class").value_or("").str();
        P.Bases = Strings(H->getArray("bases"));
        if (const llvm::json::Object *Holds = H->getObject("holds"))
          for (const auto &[Class, Elements] : *Holds)
            P.Holds[Class.str()] = Strings(Elements.getAsArray());
        S.PolymorphicHolders.push_back(std::move(P));
      }
  if (const llvm::json::Array *Classes = O->getArray("classes"))
    for (const llvm::json::Value &V : *Classes)
      if (const llvm::json::Object *M = V.getAsObject())
        S.Classes.push_back({M->getString("class").value_or("").str(),
                             Strings(M->getArray("declared")),
                             Strings(M->getArray("defined")),
                             M->getBoolean("open").value_or(true)});
  if (const llvm::json::Array *Assumed = O->getArray("dead_assumes"))
    for (const llvm::json::Value &A : *Assumed) {
      const llvm::json::Array *Pair = A.getAsArray();
      if (!Pair || Pair->size() != 2 || !(*Pair)[0].getAsString() ||
          !(*Pair)[1].getAsInteger())
        return std::nullopt;
      S.DeadAssumes.emplace_back((*Pair)[0].getAsString()->str(),
                                 static_cast<unsigned>(*(*Pair)[1].getAsInteger()));
    }
  Error.clear();
  return S;
}

} // namespace ferry
