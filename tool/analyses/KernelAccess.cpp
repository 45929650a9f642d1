#include "analyses/KernelAccess.h"

#include "model/Diagnostics.h"
#include "model/FerryTypes.h"
#include "parse/Annotations.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtVisitor.h"

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
  return !reads(P.Inferred) && P.WritesCoverRange &&
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
/// (`float *row = out + i * n;`, `auto &p = ps[i];`) and helper calls.
class AccessWalker {
public:
  AccessWalker(const FunctionDecl *F, FunctionAccessCache &Cache)
      : F(F), Cache(Cache), Result(F->getNumParams(), Access::None),
        FirstRead(F->getNumParams()), FirstWrite(F->getNumParams()) {}

  void run() {
    for (unsigned I = 0; I < F->getNumParams(); ++I) {
      QualType T = F->getParamDecl(I)->getType();
      if (T->isPointerType() || T->isReferenceType())
        Roots[F->getParamDecl(I)] = {I};
    }
    // Aliases are collected flow-insensitively: a local pointer may point
    // into every parameter any of its assignments points into.
    for (int Pass = 0; Pass < 2; ++Pass)
      collectAliases(F->getBody());
    walkStmt(F->getBody());
  }

  std::vector<Access> Result;
  std::vector<SourceLocation> FirstRead, FirstWrite;

private:
  void record(const RootSet &Set, Access Mode, SourceLocation Loc) {
    for (unsigned I : Set) {
      Result[I] |= Mode;
      if (reads(Mode) && FirstRead[I].isInvalid())
        FirstRead[I] = Loc;
      if (writes(Mode) && FirstWrite[I].isInvalid())
        FirstWrite[I] = Loc;
    }
  }

  // --- aliases ---------------------------------------------------------------
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
        const Expr *Ptr =
            BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
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

  // --- accesses --------------------------------------------------------------
  void walkStmt(const Stmt *S) {
    if (!S)
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

  void visitArguments(const FunctionDecl *Callee,
                      llvm::ArrayRef<const Expr *> Args) {
    const std::vector<Access> *Summary = nullptr;
    if (Callee && Callee->hasBody())
      Summary = &Cache.summary(Callee->getDefinition());
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *Arg = Args[I];
      QualType ParamType;
      if (Callee && I < Callee->getNumParams())
        ParamType = Callee->getParamDecl(I)->getType();
      Access Mode = Access::ReadWrite;
      if (Summary && I < Summary->size())
        Mode = (*Summary)[I];
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

  void visitValue(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() == CK_LValueToRValue)
        return visitLValue(ICE->getSubExpr(), Access::Read);
      return visitValue(ICE->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Assign) {
        visitLValue(BO->getLHS(), Access::Write);
        return visitValue(BO->getRHS());
      }
      if (BO->isCompoundAssignmentOp()) {
        visitLValue(BO->getLHS(), Access::ReadWrite);
        return visitValue(BO->getRHS());
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp())
        return visitLValue(UO->getSubExpr(), Access::ReadWrite);
      if (UO->getOpcode() == UO_AddrOf)
        return visitLValue(UO->getSubExpr(), Access::None);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (isa<CXXOperatorCallExpr>(Call) || isa<CXXMemberCallExpr>(Call))
        return visitChildren(E);
      llvm::SmallVector<const Expr *, 8> Args(Call->arguments());
      return visitArguments(Call->getDirectCallee(), Args);
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        const auto *Ctor = CE->getConstructor();
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
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp()) {
      bool LeftIsPtr = BO->getLHS()->getType()->isPointerType();
      visitPointer(LeftIsPtr ? BO->getLHS() : BO->getRHS(), Mode);
      return visitValue(LeftIsPtr ? BO->getRHS() : BO->getLHS());
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
    visitValue(E);
  }

  const FunctionDecl *F;
  FunctionAccessCache &Cache;
  std::map<const ValueDecl *, RootSet> Roots;
};

// --- coverage ---------------------------------------------------------------

/// Which work-item dimensions an index expression enumerates exactly once:
/// `kc.x` (1), `kc.y * kc.maxX + kc.x` (2), `(kc.z * kc.maxY + kc.y) * kc.maxX
/// + kc.x` (3); 0 for anything else.
class LinearIndex {
public:
  explicit LinearIndex(const FunctionDecl *Kernel) : Kernel(Kernel) {}

  int dims(const Expr *E) const {
    E = stripLocal(E);
    if (isField(E, "x"))
      return 1;
    const auto *Add = dyn_cast<BinaryOperator>(E);
    if (!Add || Add->getOpcode() != BO_Add)
      return 0;
    for (int Swap = 0; Swap < 2; ++Swap) {
      const Expr *X = stripLocal(Swap ? Add->getLHS() : Add->getRHS());
      const Expr *Rest = stripLocal(Swap ? Add->getRHS() : Add->getLHS());
      if (!isField(X, "x"))
        continue;
      const auto *Mul = dyn_cast<BinaryOperator>(Rest);
      if (!Mul || Mul->getOpcode() != BO_Mul)
        continue;
      for (int S2 = 0; S2 < 2; ++S2) {
        const Expr *Width = stripLocal(S2 ? Mul->getLHS() : Mul->getRHS());
        const Expr *Row = stripLocal(S2 ? Mul->getRHS() : Mul->getLHS());
        if (!isField(Width, "maxX"))
          continue;
        if (isField(Row, "y"))
          return 2;
        if (rowIsPlane(Row))
          return 3;
      }
    }
    return 0;
  }

private:
  bool rowIsPlane(const Expr *Row) const {
    const auto *Add = dyn_cast<BinaryOperator>(Row);
    if (!Add || Add->getOpcode() != BO_Add)
      return false;
    for (int Swap = 0; Swap < 2; ++Swap) {
      const Expr *Y = stripLocal(Swap ? Add->getLHS() : Add->getRHS());
      const auto *Mul = dyn_cast<BinaryOperator>(
          stripLocal(Swap ? Add->getRHS() : Add->getLHS()));
      if (!isField(Y, "y") || !Mul || Mul->getOpcode() != BO_Mul)
        continue;
      const Expr *L = stripLocal(Mul->getLHS()), *R = stripLocal(Mul->getRHS());
      if ((isField(L, "z") && isField(R, "maxY")) ||
          (isField(R, "z") && isField(L, "maxY")))
        return true;
    }
    return false;
  }

  bool isField(const Expr *E, llvm::StringRef Name) const {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && ME->getMemberDecl()->getName() == Name &&
           isKernelContextType(ME->getBase()->getType());
  }

  /// Looks through `int i = kc.x;` when `i` is never assigned again.
  const Expr *stripLocal(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
      E = C->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CStyleCastExpr>(E))
      E = C->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXStaticCastExpr>(E))
      E = C->getSubExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return E;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->isLocalVarDecl() || !V->getInit() || isModified(V))
      return E;
    return stripLocal(V->getInit());
  }

  bool isModified(const VarDecl *V) const {
    if (V->getType().isConstQualified())
      return false;
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl *V;
      bool Found = false;
      bool refersTo(const Expr *E) {
        const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return D && D->getDecl() == V;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        Found |= B->isAssignmentOp() && refersTo(B->getLHS());
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        Found |= (U->isIncrementDecrementOp() ||
                  U->getOpcode() == UO_AddrOf) &&
                 refersTo(U->getSubExpr());
        return true;
      }
    } F;
    F.V = V;
    F.TraverseStmt(Kernel->getBody());
    return F.Found;
  }

  const FunctionDecl *Kernel;
};

struct Coverage {
  bool Covers = false;
  int BoundParam = -1;
  int Dims = 0;
};

/// Follows the kernel's straight-line top level, entering `if (in range)`
/// blocks and passing `if (out of range) return;`, looking for a plain store
/// `p[linear index] = …` that every remaining work-item executes.
class CoverageFinder {
public:
  CoverageFinder(const FunctionDecl *Kernel, unsigned ParamIndex)
      : Kernel(Kernel), Param(Kernel->getParamDecl(ParamIndex)),
        Index(Kernel) {}

  Coverage find() {
    Coverage C;
    scan(dyn_cast<CompoundStmt>(Kernel->getBody()), C);
    return C;
  }

private:
  bool scan(const Stmt *S, Coverage &C) {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body())
        if (scanOne(Child, C))
          return true;
        else if (mayExitEarly(Child))
          return false;
      return false;
    }
    return S && scanOne(S, C);
  }

  bool scanOne(const Stmt *S, Coverage &C) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!If->getElse() && isa<ReturnStmt>(stripBlock(If->getThen())) &&
          guardBound(If->getCond(), /*InRange=*/false, C))
        return false; // `if (kc.x >= n) return;`: the rest is in range
      if (!If->getElse() && guardBound(If->getCond(), /*InRange=*/true, C))
        return scan(If->getThen(), C);
      return false;
    }
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || BO->getOpcode() != BO_Assign)
      return false;
    const auto *AS = dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens());
    if (!AS)
      return false;
    const auto *Base = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
    if (!Base || Base->getDecl() != Param || Index.dims(AS->getIdx()) == 0)
      return false;
    C.Covers = true;
    C.Dims = Index.dims(AS->getIdx());
    return true;
  }

  static const Stmt *stripBlock(const Stmt *S) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S); CS && CS->size() == 1)
      return CS->body_front();
    return S;
  }

  /// `kc.x < n` (in range) or `kc.x >= n` (out of range), joined with && or
  /// || respectively; `n` may be kc.maxX or a scalar parameter.
  bool guardBound(const Expr *Cond, bool InRange, Coverage &C) {
    Cond = Cond->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    if (!BO)
      return false;
    if (BO->getOpcode() == (InRange ? BO_LAnd : BO_LOr))
      return guardBound(BO->getLHS(), InRange, C) &&
             guardBound(BO->getRHS(), InRange, C);
    BinaryOperatorKind Less = InRange ? BO_LT : BO_GE;
    BinaryOperatorKind Greater = InRange ? BO_GT : BO_LE;
    const Expr *Id = nullptr, *Limit = nullptr;
    if (BO->getOpcode() == Less) {
      Id = BO->getLHS();
      Limit = BO->getRHS();
    } else if (BO->getOpcode() == Greater) {
      Id = BO->getRHS();
      Limit = BO->getLHS();
    } else {
      return false;
    }
    if (Index.dims(Id) == 0)
      return false;
    const auto *ME = dyn_cast<MemberExpr>(Limit->IgnoreParenImpCasts());
    if (ME && isKernelContextType(ME->getBase()->getType()))
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(Limit->IgnoreParenImpCasts());
    if (!DRE)
      return false;
    for (unsigned I = 0; I < Kernel->getNumParams(); ++I)
      if (Kernel->getParamDecl(I) == DRE->getDecl() &&
          DRE->getType()->isIntegerType()) {
        if (C.BoundParam != -1 && C.BoundParam != static_cast<int>(I))
          return false;
        C.BoundParam = static_cast<int>(I);
        return true;
      }
    return false;
  }

  static bool mayExitEarly(const Stmt *S) {
    if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) ||
        isa<GotoStmt>(S))
      return true;
    for (const Stmt *Child : S->children())
      if (Child && !isa<ForStmt>(Child) && !isa<WhileStmt>(Child) &&
          !isa<DoStmt>(Child) && mayExitEarly(Child))
        return true;
    return false;
  }

  const FunctionDecl *Kernel;
  const ParmVarDecl *Param;
  LinearIndex Index;
};

} // namespace

const std::vector<Access> &
FunctionAccessCache::summary(const FunctionDecl *F) {
  auto It = Cache.find(F);
  if (It != Cache.end())
    return It->second;
  if (InProgress[F]) {
    // Recursion (reported by the emitter): assume the worst.
    static std::vector<Access> Worst;
    Worst.assign(F->getNumParams(), Access::ReadWrite);
    return Worst;
  }
  InProgress[F] = true;
  AccessWalker Walker(F, *this);
  if (F->hasBody())
    Walker.run();
  InProgress[F] = false;
  return Cache[F] = Walker.Result;
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
    if (!P->getType()->isPointerType())
      continue;
    ParamAccess PA;
    PA.Param = P;
    PA.Index = I;
    PA.Inferred = Walker.Result[I];
    PA.Declared = declaredAccess(P);
    PA.FirstRead = Walker.FirstRead[I];
    PA.FirstWrite = Walker.FirstWrite[I];
    if (writes(PA.Inferred)) {
      Coverage C = CoverageFinder(Kernel, I).find();
      PA.WritesCoverRange = C.Covers;
      PA.CoverageBoundParam = C.BoundParam;
      PA.CoverageDims = C.Dims;
    }
    std::string Name = P->getNameAsString();
    bool ConstPointee = P->getType()->getPointeeType().isConstQualified();
    if (writes(PA.Inferred) &&
        (PA.Declared == DeclaredAccess::ReadOnly || ConstPointee)) {
      reportError(Ctx, PA.FirstWrite,
                  "kernel '" + Kernel->getNameAsString() + "' writes buffer '" +
                      Name + "', which is " +
                      (ConstPointee ? "a pointer to const" : "declared FERRY_RO"));
      if (PA.Declared == DeclaredAccess::ReadOnly)
        reportNote(Ctx, declaredAccessLoc(P), "declared read-only here");
    }
    if (reads(PA.Inferred) && PA.Declared == DeclaredAccess::WriteOnly) {
      reportError(Ctx, PA.FirstRead,
                  "kernel '" + Kernel->getNameAsString() + "' reads buffer '" +
                      Name + "', which is declared FERRY_WO");
      reportNote(Ctx, declaredAccessLoc(P), "declared write-only here");
    }
    Summary.Buffers.push_back(PA);
  }
  return Summary;
}

} // namespace ferry
