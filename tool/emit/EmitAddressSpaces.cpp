// Address spaces: where a pointer points and where an object lives
// (__global buffers, __constant globals, private variables), worked out from
// the expressions that produce them.

#include "emit/Emitter.h"
#include "model/FerryTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {
namespace emit {

const char *spaceQualifier(Space S) {
  switch (S) {
  case Space::Global:
    return "__global ";
  case Space::Constant:
    return "__constant ";
  case Space::Local:
    return "__local ";
  case Space::Private:
    return "";
  }
  return "";
}

const char *spaceWord(Space S) {
  switch (S) {
  case Space::Global:
    return "global";
  case Space::Constant:
    return "constant";
  case Space::Local:
    return "local";
  case Space::Private:
    return "private";
  }
  return "";
}


const VarInfo *Emitter::varInfo(const Expr *E) {
  E = E->IgnoreParens();
  while (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() != CK_NoOp && ICE->getCastKind() != CK_LValueToRValue)
      break;
    E = ICE->getSubExpr()->IgnoreParens();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = Cur->Vars.find(DRE->getDecl());
    if (It != Cur->Vars.end()) {
      Cur->Used.insert(DRE->getDecl());
      return &It->second;
    }
  }
  return nullptr;
}

Space Emitter::pointerSpace(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<CXXThisExpr>(E))
    return Cur->This == FunctionState::ThisMode::Pointer ? Cur->ThisSpace
                                                         : Space::Private;
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    switch (C->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return objectSpace(C->getSubExpr());
    case CK_NullToPointer:
      return Space::Private;
    default:
      return pointerSpace(C->getSubExpr());
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const VarInfo *VI = varInfo(DRE))
      return VI->Where;
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasGlobalStorage())
      return Space::Constant;
    return Space::Private;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf)
      return objectSpace(U->getSubExpr());
    return pointerSpace(U->getSubExpr());
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      return pointerSpace(B->getRHS());
    if (B->isAssignmentOp())
      return pointerSpace(B->getLHS());
    if (B->getLHS()->getType()->isPointerType())
      return pointerSpace(B->getLHS());
    return pointerSpace(B->getRHS());
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Space A = pointerSpace(CO->getTrueExpr());
    Space B = pointerSpace(CO->getFalseExpr());
    if (A != B)
      error(CO->getBeginLoc(), "the two pointers of this '?:' point into "
                               "different address spaces");
    return A;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (isLocalMemoryAccess(CE))
      return Space::Local; // tile.data()
    // The version this call resolved to recorded its return space.
    auto It = CallReturnSpaces.find(CE);
    if (It != CallReturnSpaces.end())
      return It->second;
  }
  return Space::Private;
}

Space Emitter::objectSpace(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
    if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_LValueToRValue)
      return objectSpace(C->getSubExpr());
  if (isa<MaterializeTemporaryExpr>(E))
    return Space::Private;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const VarInfo *VI = varInfo(DRE))
      return VI->RefPointer || VI->LocalMemory ? VI->Where : Space::Private;
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasGlobalStorage())
      return Space::Constant;
    return Space::Private;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return pointerSpace(AS->getBase());
  if (const auto *CE = dyn_cast<CallExpr>(E); CE && isLocalMemoryAccess(CE))
    return Space::Local; // tile[i]
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref)
      return pointerSpace(U->getSubExpr());
    if (U->isIncrementDecrementOp())
      return objectSpace(U->getSubExpr());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? pointerSpace(ME->getBase())
                         : objectSpace(ME->getBase());
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp())
      return objectSpace(B->getLHS());
    if (B->getOpcode() == BO_Comma)
      return objectSpace(B->getRHS());
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Space A = objectSpace(CO->getTrueExpr());
    Space B = objectSpace(CO->getFalseExpr());
    if (A != B)
      error(CO->getBeginLoc(), "the two objects of this '?:' live in "
                               "different address spaces");
    return A;
  }
  return Space::Private;
}


namespace {
/// The first non-null value assigned to a variable, in source order.
class FirstAssignment : public RecursiveASTVisitor<FirstAssignment> {
public:
  const VarDecl *VD;
  ASTContext &Ctx;
  const Expr *Found = nullptr;
  FirstAssignment(const VarDecl *VD, ASTContext &Ctx) : VD(VD), Ctx(Ctx) {}
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (Found || B->getOpcode() != BO_Assign)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
    if (DRE && DRE->getDecl() == VD &&
        !B->getRHS()->isNullPointerConstant(
            Ctx, Expr::NPC_ValueDependentIsNotNull))
      Found = B->getRHS();
    return true;
  }
};
} // namespace

const Expr *Emitter::firstAssignment(const VarDecl *VD) {
  FirstAssignment V(VD, Ctx);
  V.TraverseStmt(const_cast<Stmt *>(Cur->F->getBody()));
  return V.Found;
}

bool Emitter::isKernelContextParamRef(const Expr *E) {
  if (!Cur->KernelContextParam)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == Cur->KernelContextParam;
}

} // namespace emit
} // namespace ferry
