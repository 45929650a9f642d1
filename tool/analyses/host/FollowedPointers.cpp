// Followed pointers (see FollowedPointers.h): each use of the pointer,
// classified by what its value flows into.

#include "analyses/host/FollowedPointers.h"

#include "analyses/host/HostAccessInternal.h"
#include "analyses/MpiCalls.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace ferry {

namespace followed_pointers {

class Uses {
public:
  explicit Uses(ASTContext &Ctx) : Ctx(Ctx) {}

  bool followed(const VarDecl *P, const FunctionDecl *F) {
    if (!Checked.insert(P).second)
      return true; // being checked: its other uses decide
    if (!P->hasLocalStorage() || isa<ParmVarDecl>(P) ||
        !P->getType()->isPointerType() || !F->hasBody())
      return false;
    struct Refs : RecursiveASTVisitor<Refs> {
      const VarDecl *P;
      std::vector<const DeclRefExpr *> Found;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (R->getDecl() == P)
          Found.push_back(R);
        return true;
      }
    } Find;
    Find.P = P;
    Find.TraverseStmt(F->getBody());
    for (const DeclRefExpr *R : Find.Found)
      if (!lvalueUse(R, F))
        return false;
    return true;
  }

private:
  const Stmt *parentOf(const Stmt *S, const Decl **AsDecl = nullptr) {
    DynTypedNodeList Parents = Ctx.getParents(*S);
    if (Parents.empty())
      return nullptr;
    if (AsDecl)
      *AsDecl = Parents[0].get<Decl>();
    return Parents[0].get<Stmt>();
  }

  bool insideLambda(const Stmt *S) {
    for (DynTypedNodeList Parents = Ctx.getParents(*S); !Parents.empty();
         Parents = Ctx.getParents(Parents[0]))
      if (Parents[0].get<LambdaExpr>())
        return true;
    return false;
  }

  /// The variable itself: loaded, re-pointed, stepped; not its address.
  bool lvalueUse(const DeclRefExpr *R, const FunctionDecl *F) {
    if (insideLambda(R))
      return false;
    const Stmt *Child = R;
    const Stmt *Parent = parentOf(R);
    while (isa_and_nonnull<ParenExpr>(Parent)) {
      Child = Parent;
      Parent = parentOf(Parent);
    }
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Parent);
        C && C->getCastKind() == CK_LValueToRValue)
      return valueUse(C, F);
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Parent))
      return B->isAssignmentOp() && B->getLHS() == Child; // re-pointed
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Parent))
      return U->isIncrementDecrementOp() && valueOrDiscarded(U, F);
    return false;
  }

  /// `p++` as a statement (or a loop's step), or its value followed.
  bool valueOrDiscarded(const Expr *E, const FunctionDecl *F) {
    const Stmt *Parent = parentOf(E);
    if (isa_and_nonnull<CompoundStmt>(Parent) || isa_and_nonnull<ForStmt>(Parent) ||
        isa_and_nonnull<ExprWithCleanups>(Parent))
      return true;
    return valueUse(E, F);
  }

  /// A pointer value (P's, or one derived from it by arithmetic): where it
  /// goes.
  bool valueUse(const Expr *E, const FunctionDecl *F) {
    const Decl *AsDecl = nullptr;
    const Stmt *Parent = parentOf(E, &AsDecl);
    if (!Parent) {
      // A variable's initialiser: another pointer, followed itself.
      const auto *V = dyn_cast_or_null<VarDecl>(AsDecl);
      return V && !V->getType()->isReferenceType() &&
             V->getType()->isPointerType() && followed(V, F);
    }
    if (isa<ParenExpr>(Parent) || isa<ExprWithCleanups>(Parent))
      return valueUse(cast<Expr>(Parent), F);
    if (isa<CompoundStmt>(Parent))
      return true; // discarded: `memcpy(p, …);` returns p
    if (const auto *C = dyn_cast<CastExpr>(Parent)) {
      if (C->getCastKind() == CK_PointerToBoolean)
        return true;
      return C->getType()->isPointerType() && valueUse(C, F);
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Parent))
      return AS->getBase() == E;
    if (const auto *U = dyn_cast<UnaryOperator>(Parent))
      return U->getOpcode() == UO_Deref;
    if (const auto *M = dyn_cast<MemberExpr>(Parent))
      return M->isArrow() && M->getBase() == E;
    if (const auto *B = dyn_cast<BinaryOperator>(Parent)) {
      if (B->isComparisonOp() ||
          (B->getOpcode() == BO_Sub && !B->getType()->isPointerType()))
        return true;
      if (B->isAdditiveOp() && B->getType()->isPointerType())
        return valueUse(B, F);
      if (B->isCommaOp())
        return B->getLHS() == E || valueUse(B, F);
      if (B->getOpcode() == BO_Assign && B->getRHS() == E) {
        const auto *R =
            dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
        const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
        return V && V->getType()->isPointerType() && followed(V, F);
      }
      return false;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(Parent))
      return CO->getCond() == E || valueUse(CO, F);
    if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      if (Call->getCallee() == E || !keepsNothing(Call))
        return false;
      // What the callee does through it is an event at the call (the
      // algorithm's or MPI's range, or an escape); a pointer it returns may
      // point into the same elements.
      return !Call->getType()->isPointerType() || valueUse(Call, F);
    }
    if (isa<CXXConstructExpr>(Parent) || isa<InitListExpr>(Parent) ||
        isa<ReturnStmt>(Parent))
      return false;
    if (isa<IfStmt>(Parent) || isa<WhileStmt>(Parent) || isa<ForStmt>(Parent) ||
        isa<DoStmt>(Parent))
      return true; // a condition: compared with null
    return false;
  }

  /// A call that cannot keep the pointer for later without an escape at
  /// the call saying so: the C and C++ libraries' and MPI's functions, and
  /// calls through pointers (escapes). A helper Ferry summarises (its body
  /// here or in another Ferry source) could store it where no event sees
  /// it.
  static bool keepsNothing(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    return !Callee || inSystemHeader(Callee) || mpiFunction(Callee);
  }

  ASTContext &Ctx;
  std::set<const VarDecl *> Checked;
};

} // namespace followed_pointers

bool everyUseFollowed(const VarDecl *P, const FunctionDecl *F) {
  if (!P || !F)
    return false;
  followed_pointers::Uses U(F->getASTContext());
  return U.followed(P, F);
}

} // namespace ferry
