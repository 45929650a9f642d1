#include "analyses/kernel/KernelAccess.h"

#include "analyses/CallGraphs.h"
#include "model/Diagnostics.h"
#include "model/FerryTypes.h"
#include "parse/Annotations.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Lex/Lexer.h"

#include <set>

using namespace clang;

namespace ferry {

const ParamAccess *KernelAccessSummary::forParam(unsigned Index) const {
  for (const ParamAccess &P : Buffers)
    if (P.Index == Index)
      return &P;
  return nullptr;
}

bool overwritesWholeRange(const ParamAccess &P, int RangeDims) {
  if (P.Declared == DeclaredAccess::WriteOnly)
    return true;
  return (!reads(P.Inferred) || P.ReadsOnlyOwnWrites) && P.WritesCoverRange &&
         P.CoverageDims == RangeDims;
}

bool needsDeviceCopyBefore(const ParamAccess &P, int RangeDims) {
  if (overwritesWholeRange(P, RangeDims))
    return false;
  return reads(P.Inferred) || writes(P.Inferred);
}

bool leavesDeviceNewer(const ParamAccess &P) { return writes(P.Inferred); }

std::string declaredAccessName(DeclaredAccess D) {
  switch (D) {
  case DeclaredAccess::None:
    return "-";
  case DeclaredAccess::ReadOnly:
    return "FERRY_RO";
  case DeclaredAccess::WriteOnly:
    return "FERRY_WO";
  case DeclaredAccess::ReadWrite:
    return "FERRY_RW";
  }
  return "?";
}

namespace {

using RootSet = std::set<unsigned>;

/// Walks one function body and attributes every load and store through a
/// pointer or reference parameter to that parameter, following local aliases
/// (`float *row = out + i * n;`, `auto &p = ps[i];`), helper calls (their
/// summaries, and the pointers or references they return) and member
/// functions of elements.
class AccessWalker {
public:
  AccessWalker(const FunctionDecl *F, FunctionAccessCache &Cache)
      : Result(F->getNumParams(), Access::None),
        FirstRead(F->getNumParams()), FirstWrite(F->getNumParams()),
        FirstReadExpr(F->getNumParams()), FirstWriteExpr(F->getNumParams()),
        F(F), Cache(Cache) {}

  void run() {
    for (unsigned I = 0; I < F->getNumParams(); ++I) {
      QualType T = F->getParamDecl(I)->getType();
      if (T->isPointerType() || T->isReferenceType())
        Roots[F->getParamDecl(I)] = {I};
    }
    // Aliases are collected flow-insensitively: a local pointer may point
    // into every parameter any of its assignments points into. Two passes
    // follow a pointer copied from one declared later in the body.
    for (int Pass = 0; Pass < 2; ++Pass)
      collectAliases(F->getBody());
    collectReturns(F->getBody());
    walkStmt(F->getBody());
  }

  std::vector<Access> Result;
  std::vector<SourceLocation> FirstRead, FirstWrite;
  std::vector<const Expr *> FirstReadExpr, FirstWriteExpr;
  RootSet ReturnsInto;

private:
  /// The expression an access is blamed on in diagnostics.
  struct Blaming {
    Blaming(AccessWalker &W, const Expr *E) : W(W), Saved(W.Blame) {
      W.Blame = E;
    }
    ~Blaming() { W.Blame = Saved; }
    AccessWalker &W;
    const Expr *Saved;
  };

  void record(const RootSet &Set, Access Mode, SourceLocation Loc) {
    for (unsigned I : Set) {
      Result[I] |= Mode;
      if (reads(Mode) && FirstRead[I].isInvalid()) {
        FirstRead[I] = Loc;
        FirstReadExpr[I] = Blame;
      }
      if (writes(Mode) && FirstWrite[I].isInvalid()) {
        FirstWrite[I] = Loc;
        FirstWriteExpr[I] = Blame;
      }
    }
  }

  // --- aliases ---------------------------------------------------------------
  /// Arguments of a call to a helper that returns a pointer or reference
  /// into them, each with whether its parameter is a reference.
  std::vector<std::pair<const Expr *, bool>> returnedArguments(const Expr *E) {
    std::vector<std::pair<const Expr *, bool>> Out;
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call || isa<CXXMemberCallExpr>(Call) || isa<CXXOperatorCallExpr>(Call))
      return Out;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getDefinition() ||
        !Callee->getDefinition()->hasBody())
      return Out;
    Callee = Callee->getDefinition();
    for (unsigned I : Cache.returnsInto(Callee))
      if (I < Call->getNumArgs() && I < Callee->getNumParams())
        Out.emplace_back(Call->getArg(I),
                         Callee->getParamDecl(I)->getType()->isReferenceType());
    return Out;
  }

  RootSet rootsOfCall(const Expr *E) {
    RootSet S;
    for (auto [Arg, ByRef] : returnedArguments(E)) {
      RootSet A = ByRef ? rootsOfLValue(Arg) : rootsOfPointer(Arg);
      S.insert(A.begin(), A.end());
    }
    return S;
  }

  RootSet rootsOfPointer(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      auto It = Roots.find(DRE->getDecl());
      if (It != Roots.end() && !DRE->getDecl()->getType()->isReferenceType())
        return It->second;
      return {};
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp() || BO->isAssignmentOp() || BO->isCommaOp()) {
        const Expr *Ptr = BO->getLHS()->getType()->isPointerType() &&
                                  !BO->isCommaOp()
                              ? BO->getLHS()
                              : BO->getRHS();
        return rootsOfPointer(Ptr);
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf)
        return rootsOfLValue(UO->getSubExpr());
      if (UO->isIncrementDecrementOp())
        return rootsOfPointer(UO->getSubExpr());
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      RootSet S = rootsOfPointer(CO->getTrueExpr());
      RootSet T = rootsOfPointer(CO->getFalseExpr());
      S.insert(T.begin(), T.end());
      return S;
    }
    if (isa<CallExpr>(E))
      return rootsOfCall(E);
    return {};
  }

  RootSet rootsOfLValue(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return rootsOfPointer(AS->getBase());
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref)
      return rootsOfPointer(UO->getSubExpr());
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->isArrow() ? rootsOfPointer(ME->getBase())
                           : rootsOfLValue(ME->getBase());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      auto It = Roots.find(DRE->getDecl());
      if (It != Roots.end() && DRE->getDecl()->getType()->isReferenceType())
        return It->second;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      RootSet S = rootsOfLValue(CO->getTrueExpr());
      RootSet T = rootsOfLValue(CO->getFalseExpr());
      S.insert(T.begin(), T.end());
      return S;
    }
    if (isa<CallExpr>(E))
      return rootsOfCall(E);
    return {};
  }

  void addRoots(const ValueDecl *D, const RootSet &S) {
    if (!S.empty())
      Roots[D].insert(S.begin(), S.end());
  }

  void collectAliases(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit()) {
          if (V->getType()->isPointerType())
            addRoots(V, rootsOfPointer(V->getInit()));
          else if (V->getType()->isReferenceType())
            addRoots(V, rootsOfLValue(V->getInit()));
        }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->isAssignmentOp() && BO->getType()->isPointerType()) {
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        addRoots(DRE->getDecl(), rootsOfPointer(BO->getRHS()));
    }
    for (const Stmt *Child : S->children())
      collectAliases(Child);
  }

  void collectReturns(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S); Ret && Ret->getRetValue()) {
      QualType T = F->getReturnType();
      RootSet R;
      if (T->isPointerType())
        R = rootsOfPointer(Ret->getRetValue());
      else if (T->isReferenceType())
        R = rootsOfLValue(Ret->getRetValue());
      ReturnsInto.insert(R.begin(), R.end());
    }
    for (const Stmt *Child : S->children())
      collectReturns(Child);
  }

  // --- accesses --------------------------------------------------------------
  void walkStmt(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      return visitValue(E);
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit()) {
          if (V->getType()->isReferenceType())
            visitLValue(V->getInit(), Access::None);
          else if (V->getType()->isPointerType())
            visitPointer(V->getInit(), Access::None);
          else
            visitValue(V->getInit());
        }
      return;
    }
    for (const Stmt *Child : S->children())
      walkStmt(Child);
  }

  void visitChildren(const Expr *E) {
    for (const Stmt *Child : E->children())
      if (Child)
        walkStmt(Child);
  }

  /// Arguments bound to Callee's parameters: by the callee's summary when
  /// Ferry sees its body; otherwise read through a pointer or reference to
  /// const, read and written through any other.
  void visitArguments(const FunctionDecl *Callee,
                      llvm::ArrayRef<const Expr *> Args) {
    const std::vector<Access> *Summary = nullptr;
    if (Callee && Callee->getDefinition() && Callee->getDefinition()->hasBody())
      Summary = &Cache.summary(Callee->getDefinition());
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *Arg = Args[I];
      QualType ParamType;
      if (Callee && I < Callee->getNumParams())
        ParamType = Callee->getParamDecl(I)->getType();
      Access Mode = Access::ReadWrite;
      if (Summary && I < Summary->size())
        Mode = (*Summary)[I];
      // An atomic (ferry::atomicAdd(&b[i], v), …) reads and writes its
      // element whatever it computes: a buffer it touches is never
      // write-only, so its copy in is never skipped.
      if (I == 0 && isAtomicFunction(Callee))
        Mode = Access::ReadWrite;
      if (!ParamType.isNull() && ParamType->isReferenceType()) {
        if (ParamType.getNonReferenceType().isConstQualified() && !Summary)
          Mode = Access::Read;
        visitLValue(Arg, Mode);
      } else if (!ParamType.isNull() && ParamType->isPointerType()) {
        if (ParamType->getPointeeType().isConstQualified() && !Summary)
          Mode = Access::Read;
        visitPointer(Arg, Mode);
      } else {
        visitValue(Arg);
      }
    }
  }

  /// A member function called on an element (`ps[i].norm()`, `p->reset()`,
  /// `ps[i] = q` with a class's operator=): the object is read by a const
  /// member, read and written by any other; `=` only writes it.
  void visitMemberCall(const CallExpr *Call, const CXXMethodDecl *Method,
                       const Expr *Object, bool ThroughPointer,
                       llvm::ArrayRef<const Expr *> Args) {
    Access Mode = Method->isConst() ? Access::Read : Access::ReadWrite;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->isAssignmentOp())
      Mode = Op->getOperator() == OO_Equal ? Access::Write : Access::ReadWrite;
    {
      Blaming B(*this, Call);
      if (ThroughPointer)
        visitPointer(Object, Mode);
      else
        visitLValue(Object, Mode);
    }
    Blaming B(*this, Call);
    visitArguments(Method, Args);
  }

  void visitCall(const CallExpr *Call) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *Method = MC->getMethodDecl();
      const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
      llvm::SmallVector<const Expr *, 8> Args(MC->arguments());
      if (Method && ME)
        return visitMemberCall(Call, Method, ME->getBase(), ME->isArrow(), Args);
      return visitChildren(Call);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      if (const auto *Method =
              dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee())) {
        llvm::SmallVector<const Expr *, 8> Args;
        for (unsigned I = 1; I < Op->getNumArgs(); ++I)
          Args.push_back(Op->getArg(I));
        return visitMemberCall(Call, Method, Op->getArg(0), false, Args);
      }
    }
    Blaming B(*this, Call);
    llvm::SmallVector<const Expr *, 8> Args(Call->arguments());
    visitArguments(Call->getDirectCallee(), Args);
  }

  /// What the caller does through a pointer or reference a helper returns,
  /// it does to the arguments the result points into.
  void visitCallResult(const CallExpr *Call, Access Mode) {
    visitCall(Call);
    if (Mode == Access::None)
      return;
    for (auto [Arg, ByRef] : returnedArguments(Call)) {
      if (ByRef)
        visitLValue(Arg, Mode);
      else
        visitPointer(Arg, Mode);
    }
  }

  void visitValue(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() == CK_LValueToRValue) {
        Blaming B(*this, ICE->getSubExpr());
        return visitLValue(ICE->getSubExpr(), Access::Read);
      }
      return visitValue(ICE->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Assign) {
        {
          Blaming B(*this, BO);
          visitLValue(BO->getLHS(), Access::Write);
        }
        return visitValue(BO->getRHS());
      }
      if (BO->isCompoundAssignmentOp()) {
        {
          Blaming B(*this, BO);
          visitLValue(BO->getLHS(), Access::ReadWrite);
        }
        return visitValue(BO->getRHS());
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp()) {
        Blaming B(*this, UO);
        return visitLValue(UO->getSubExpr(), Access::ReadWrite);
      }
      if (UO->getOpcode() == UO_AddrOf)
        return visitLValue(UO->getSubExpr(), Access::None);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return visitCall(Call);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      Blaming B(*this, CE);
      const auto *Ctor = CE->getConstructor();
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        bool ByRef = Ctor && I < Ctor->getNumParams() &&
                     Ctor->getParamDecl(I)->getType()->isReferenceType();
        if (ByRef)
          visitLValue(CE->getArg(I),
                      Ctor->getParamDecl(I)
                              ->getType()
                              .getNonReferenceType()
                              .isConstQualified()
                          ? Access::Read
                          : Access::ReadWrite);
        else
          visitValue(CE->getArg(I));
      }
      return;
    }
    if (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E) ||
        isa<DeclRefExpr>(E))
      return visitLValue(E, Access::None);
    visitChildren(E);
  }

  void visitLValue(const Expr *E, Access Mode) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
        ICE && ICE->getCastKind() != CK_LValueToRValue &&
        ICE->getCastKind() != CK_ArrayToPointerDecay)
      return visitLValue(ICE->getSubExpr(), Mode);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      visitPointer(AS->getBase(), Mode);
      return visitValue(AS->getIdx());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref)
      return visitPointer(UO->getSubExpr(), Mode);
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->isArrow() ? visitPointer(ME->getBase(), Mode)
                           : visitLValue(ME->getBase(), Mode);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (DRE->getDecl()->getType()->isReferenceType()) {
        auto It = Roots.find(DRE->getDecl());
        if (It != Roots.end())
          record(It->second, Mode, DRE->getExprLoc());
      }
      return;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      visitValue(CO->getCond());
      visitLValue(CO->getTrueExpr(), Mode);
      return visitLValue(CO->getFalseExpr(), Mode);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isCommaOp()) {
      visitValue(BO->getLHS());
      return visitLValue(BO->getRHS(), Mode);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return visitCallResult(Call, Mode);
    visitValue(E);
  }

  void visitPointer(const Expr *E, Access Mode) {
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_ArrayToPointerDecay)
        return visitLValue(CE->getSubExpr(), Mode);
      if (CE->getCastKind() != CK_LValueToRValue)
        return visitPointer(CE->getSubExpr(), Mode);
      const Expr *Sub = CE->getSubExpr()->IgnoreParens();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub)) {
        auto It = Roots.find(DRE->getDecl());
        if (It != Roots.end())
          record(It->second, Mode, E->getExprLoc());
        return;
      }
      return visitPointer(Sub, Mode);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      auto It = Roots.find(DRE->getDecl());
      if (It != Roots.end())
        record(It->second, Mode, E->getExprLoc());
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp()) {
        bool LeftIsPtr = BO->getLHS()->getType()->isPointerType();
        visitPointer(LeftIsPtr ? BO->getLHS() : BO->getRHS(), Mode);
        return visitValue(LeftIsPtr ? BO->getRHS() : BO->getLHS());
      }
      if (BO->isCommaOp()) {
        visitValue(BO->getLHS());
        return visitPointer(BO->getRHS(), Mode);
      }
      if (BO->isAssignmentOp()) {
        // `*(p = q) = v`, `*(p += 2) = v`: the pointer after the assignment.
        visitValue(BO);
        return visitPointer(BO->getLHS(), Mode);
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf)
        return visitLValue(UO->getSubExpr(), Mode);
      if (UO->isIncrementDecrementOp())
        return visitPointer(UO->getSubExpr(), Mode);
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      visitValue(CO->getCond());
      visitPointer(CO->getTrueExpr(), Mode);
      return visitPointer(CO->getFalseExpr(), Mode);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return visitCallResult(Call, Mode);
    visitValue(E);
  }

  const Expr *Blame = nullptr;
  const FunctionDecl *F;
  FunctionAccessCache &Cache;
  std::map<const ValueDecl *, RootSet> Roots;
};

} // namespace

const std::vector<Access> &
FunctionAccessCache::summary(const FunctionDecl *F) {
  auto It = Cache.find(F);
  if (It != Cache.end())
    return It->second;
  if (InProgress[F]) {
    // Recursion (reported by the emitter): assume the worst.
    return WorstCase.try_emplace(F, F->getNumParams(), Access::ReadWrite)
        .first->second;
  }
  InProgress[F] = true;
  AccessWalker Walker(F, *this);
  if (F->hasBody())
    Walker.run();
  InProgress[F] = false;
  Returns[F] = Walker.ReturnsInto;
  return Cache[F] = Walker.Result;
}

const std::set<unsigned> &
FunctionAccessCache::returnsInto(const FunctionDecl *F) {
  static const std::set<unsigned> None;
  if (!Cache.count(F)) {
    if (InProgress[F])
      return None;
    summary(F);
  }
  auto It = Returns.find(F);
  return It == Returns.end() ? None : It->second;
}

/// `a[kc.x] = v * 2.0f` as written, for diagnostics (shortened when long).
static std::string expressionText(ASTContext &Ctx, const Expr *E) {
  if (!E)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(
      SM.getExpansionRange(E->getSourceRange()).getAsRange());
  std::string Text =
      Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  std::string Flat;
  for (char C : Text) {
    if (C == '\n' || C == '\t' || C == '\r')
      C = ' ';
    if (C == ' ' && !Flat.empty() && Flat.back() == ' ')
      continue;
    Flat += C;
  }
  if (Flat.size() > 60)
    Flat = Flat.substr(0, 57) + "...";
  return Flat;
}

KernelAccessSummary analyzeKernelAccess(ASTContext &Ctx,
                                        const FunctionDecl *Kernel,
                                        FunctionAccessCache &Cache) {
  KernelAccessSummary Summary;
  Summary.Kernel = Kernel;
  AccessWalker Walker(Kernel, Cache);
  Walker.run();
  for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
    const ParmVarDecl *P = Kernel->getParamDecl(I);
    if (isReducerType(P->getType())) {
      // Bound to a buffer whose element 0 the reduction reads and writes.
      ParamAccess PA;
      PA.Param = P;
      PA.Index = I;
      PA.Inferred = Access::ReadWrite;
      PA.FirstRead = PA.FirstWrite = P->getLocation();
      Summary.Buffers.push_back(PA);
      continue;
    }
    if (!P->getType()->isPointerType())
      continue;
    ParamAccess PA;
    PA.Param = P;
    PA.Index = I;
    PA.Inferred = Walker.Result[I];
    PA.Declared = declaredAccess(P);
    PA.FirstRead = Walker.FirstRead[I];
    PA.FirstWrite = Walker.FirstWrite[I];
    PA.FirstReadExpr = Walker.FirstReadExpr[I];
    PA.FirstWriteExpr = Walker.FirstWriteExpr[I];
    if (writes(PA.Inferred)) {
      Coverage C = findCoverage(Kernel, I);
      PA.WritesCoverRange = C.Covers;
      PA.CoverageBoundParam = C.Covers && !C.Grid.Valid ? C.BoundParam : -1;
      PA.CoverageDims = C.Covers ? C.Dims : 0;
      PA.Grid = C.Grid;
      PA.CoverageOffset = C.Covers ? C.Offset : std::vector<OffsetTerm>();
      PA.ReadsOnlyOwnWrites =
          reads(PA.Inferred) && readsOnlyOwnWrites(Kernel, P, C, Ctx);
      PA.StoresOnlyCovered = storesOnlyCovered(Kernel, P, C, Ctx);
    }
    std::string Name = P->getNameAsString();
    std::string KName = Kernel->getNameAsString();
    bool ConstPointee = P->getType()->getPointeeType().isConstQualified();
    auto Where = [&](const Expr *E, SourceLocation Loc) {
      std::string Text = expressionText(Ctx, E);
      return Text.empty() ? std::string() : " in `" + Text + "`";
    };
    if (writes(PA.Inferred) &&
        (PA.Declared == DeclaredAccess::ReadOnly || ConstPointee)) {
      const Expr *E = PA.FirstWriteExpr;
      reportError(Ctx, E ? E->getBeginLoc() : PA.FirstWrite,
                  "kernel '" + KName + "' writes buffer parameter '" + Name +
                      "'" + Where(E, PA.FirstWrite) + ", but '" + Name +
                      "' is " +
                      (PA.Declared == DeclaredAccess::ReadOnly
                           ? "declared FERRY_RO"
                           : "a pointer to const"),
                  E ? E->getSourceRange() : SourceRange());
      if (PA.Declared == DeclaredAccess::ReadOnly)
        reportNote(Ctx,
                   Ctx.getSourceManager().getExpansionLoc(declaredAccessLoc(P)),
                   "'" + Name + "' declared read-only here");
    }
    if (reads(PA.Inferred) && PA.Declared == DeclaredAccess::WriteOnly) {
      const Expr *E = PA.FirstReadExpr;
      reportError(Ctx, E ? E->getBeginLoc() : PA.FirstRead,
                  "kernel '" + KName + "' reads buffer parameter '" + Name +
                      "'" + Where(E, PA.FirstRead) + ", but '" + Name +
                      "' is declared FERRY_WO (write-only)",
                  E ? E->getSourceRange() : SourceRange());
      reportNote(Ctx,
                 Ctx.getSourceManager().getExpansionLoc(declaredAccessLoc(P)),
                 "'" + Name + "' declared write-only here");
    }
    Summary.Buffers.push_back(PA);
  }
  return Summary;
}

} // namespace ferry
