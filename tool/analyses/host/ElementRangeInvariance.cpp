// Element ranges: invariance (see ElementRanges.h). Whether a variable a
// range's text names means before the statement what it means inside it:
// not declared there, not changed there (a dispatch's arguments reach the
// kernel by value), not reachable by a call that could change it; and
// whether any call in the statement may resize a container.

#include "analyses/host/ElementRanges.h"

#include "analyses/host/ElementRangesInternal.h"
#include "analyses/host/HostAccessInternal.h"
#include "analyses/LoopShape.h"
#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {

// --- what a call may change ----------------------------------------------------

bool reachableByCalls(const VarDecl *V, const FunctionDecl *F) {
  if (!V->hasLocalStorage() || V->getType()->isReferenceType())
    return true;
  // `&n` or `int &r = n` anywhere in the function: a callee may hold it.
  struct Escape : RecursiveASTVisitor<Escape> {
    const VarDecl *V;
    bool Found = false;
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->getOpcode() == UO_AddrOf)
        if (const auto *R = dyn_cast<DeclRefExpr>(
                U->getSubExpr()->IgnoreParenImpCasts()))
          Found = Found || R->getDecl() == V;
      return true;
    }
    bool VisitVarDecl(VarDecl *D) {
      if (D->getType()->isReferenceType() &&
          !D->getType().getNonReferenceType().isConstQualified() && D->getInit())
        if (const auto *R =
                dyn_cast<DeclRefExpr>(D->getInit()->IgnoreParenImpCasts()))
          Found = Found || R->getDecl() == V;
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *L) {
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
            C.getCapturedVar() == V)
          Found = true;
      return true;
    }
  } Find;
  Find.V = V;
  if (F && F->hasBody())
    Find.TraverseStmt(F->getBody());
  return Find.Found;
}

bool callsAnything(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    const FunctionDecl *F = Call->getDirectCallee();
    bool BufferMember =
        (MC && refersToBuffer(MC->getImplicitObjectArgument()->getType())) ||
        (Op && Op->getNumArgs() > 0 && refersToBuffer(Op->getArg(0)->getType()));
    bool PureLibrary = F && inSystemHeader(F) && !MC;
    if (PureLibrary)
      for (const ParmVarDecl *P : F->parameters()) {
        QualType T = P->getType();
        if ((T->isReferenceType() &&
             !T.getNonReferenceType().isConstQualified()) ||
            (T->isPointerType() && !T->getPointeeType().isConstQualified()))
          PureLibrary = false;
      }
    if (!BufferMember && !PureLibrary)
      return true;
  }
  for (const Stmt *Child : S->children())
    if (callsAnything(Child))
      return true;
  return false;
}

// --- the root's facts ------------------------------------------------------------

namespace element_ranges {

bool changedWithin(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isDispatchCall(Call)) {
    for (const Expr *A : Call->arguments())
      if (changedWithin(A, V))
        return true;
    return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    // The call itself (a mutable reference parameter bound to V) …
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Skip = isa<CXXOperatorCallExpr>(Call) && Callee &&
                            isa<CXXMethodDecl>(Callee)
                        ? 1
                        : 0;
    for (unsigned I = Skip; I < Call->getNumArgs(); ++I) {
      const auto *R =
          dyn_cast<DeclRefExpr>(Call->getArg(I)->IgnoreParenImpCasts());
      if (!Call->getArg(I)->isGLValue() || !R || R->getDecl() != V)
        continue;
      unsigned P = I - Skip;
      QualType T = Callee && P < Callee->getNumParams()
                       ? Callee->getParamDecl(P)->getType()
                       : QualType();
      if (T.isNull() || (T->isReferenceType() &&
                         !T.getNonReferenceType().isConstQualified()))
        return true;
    }
    // … and what its parts do.
    for (const Stmt *Child : S->children())
      if (changedWithin(Child, V))
        return true;
    return false;
  }
  // A reference bound to V (and the initialisers' own calls, which hold
  // no dispatch).
  if (const auto *D = dyn_cast<DeclStmt>(S))
    return changes(D, V);
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    const auto *R = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
    if (B->isAssignmentOp() && R && R->getDecl() == V)
      return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    const auto *R =
        dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts());
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && R &&
        R->getDecl() == V)
      return true;
  }
  for (const Stmt *Child : S->children())
    if (changedWithin(Child, V))
      return true;
  return false;
}

} // namespace element_ranges

bool ElementRanges::declaredInRoot(const VarDecl *V) const {
  if (!Declared) {
    struct Decls : RecursiveASTVisitor<Decls> {
      std::set<const VarDecl *> Found;
      bool VisitVarDecl(VarDecl *D) {
        Found.insert(D);
        return true;
      }
    } Find;
    Find.TraverseStmt(const_cast<Stmt *>(Root));
    Declared = std::move(Find.Found);
  }
  return Declared->count(V) != 0;
}

/// V means the same before the root as anywhere inside it.
bool ElementRanges::invariant(const VarDecl *V) const {
  auto It = Invariant.find(V);
  if (It != Invariant.end())
    return It->second;
  if (!Calls)
    Calls = callsAnything(Root);
  bool Same = !declaredInRoot(V) && !element_ranges::changedWithin(Root, V) &&
              !(*Calls && reachableByCalls(V, Table.function()));
  Invariant[V] = Same;
  return Same;
}

/// No call in the root may change a container's size: every call is a
/// const member function, an element accessor (operator[], data(),
/// begin(), end(), at(), front(), back()), a library function other than
/// the swaps, or a C library or MPI function given pointers.
bool ElementRanges::resizesNothing() const {
  if (Resizes)
    return !*Resizes;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    static bool accessor(const CXXMethodDecl *M) {
      if (M->isConst())
        return true;
      if (M->isOverloadedOperator())
        return M->getOverloadedOperator() == OO_Subscript;
      if (!M->getIdentifier())
        return false;
      llvm::StringRef N = M->getName();
      return N == "data" || N == "begin" || N == "end" || N == "at" ||
             N == "front" || N == "back" || N == "size";
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F) {
        Found = true;
        return true;
      }
      if (const auto *M = dyn_cast<CXXMethodDecl>(F)) {
        if (!M->isStatic() && !accessor(M))
          Found = true;
        return true;
      }
      if (!F->getIdentifier()) {
        Found = true;
        return true;
      }
      llvm::StringRef N = F->getName();
      if (F->isInStdNamespace())
        Found = Found || N == "swap" || N == "exchange" || N == "iter_swap";
      else if (!inSystemHeader(F) && !N.starts_with("MPI_"))
        Found = true;
      // A library function takes pointers and values, never a container.
      for (const Expr *A : Call->arguments())
        if (A->isGLValue() && A->getType()->getAsCXXRecordDecl() &&
            !F->isInStdNamespace())
          Found = true;
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      if (C->getConstructor() && C->getConstructor()->isMoveConstructor())
        Found = true;
      return true;
    }
  } Find;
  Find.TraverseStmt(const_cast<Stmt *>(Root));
  Resizes = Find.Found;
  return !Find.Found;
}

} // namespace ferry
