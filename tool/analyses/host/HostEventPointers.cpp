// Host events: pointers into buffers. A pointer from data(), begin() or
// `&b[i]` that is kept lets the buffer escape (unless it points to const);
// one only compared touches nothing; elements accessed through a pointer
// Ferry follows (FollowedPointers.h) are events where they are accessed.

#include "analyses/host/HostEventWalker.h"

#include "analyses/host/FollowedPointers.h"
#include "analyses/host/HostAccess.h"
#include "analyses/host/HostAccessInternal.h"
#include "analyses/paths/ObjectTable.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ferry {

void HostWalker::consumePointer(const Expr *E, Use U, Access Mode,
                                bool ToConst) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (CE->getCastKind() == CK_ArrayToPointerDecay)
      return visitLValue(CE->getSubExpr(),
                         U == Use::Element ? Mode : Access::None);
    if (CE->getCastKind() == CK_LValueToRValue)
      return pointerVariable(CE->getSubExpr(), E, U, Mode);
    bool Const = ToConst || isPointerToConst(CE->getType());
    if (CE->getCastKind() == CK_PointerToBoolean)
      U = Use::Compare;
    return consumePointer(CE->getSubExpr(), U, Mode, Const);
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && isBufferElementAccessor(MC)) {
    const Expr *Object = MC->getImplicitObjectArgument();
    std::string Name = MC->getMethodDecl()->getNameAsString();
    if (U == Use::Element)
      return add(E, Object, Mode,
                 std::string("elements ") + modeWord(Mode) + " through " +
                     Name + "()");
    if (U == Use::Compare)
      return;
    bool Const = ToConst || isPointerToConst(MC->getType());
    if (Const)
      return add(E, Object, Access::Read,
                 Name + "() read through a pointer to const");
    add(E, Object, Access::ReadWrite,
        Name + "() hands out a pointer to its elements", false,
        /*Escapes=*/true);
    return markBinding(E);
  }
  if (isa<DeclRefExpr>(E))
    return pointerVariable(E, E, U, Mode);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp() && BO->getType()->isPointerType()) {
      bool LeftPtr = BO->getLHS()->getType()->isPointerType();
      consumePointer(LeftPtr ? BO->getLHS() : BO->getRHS(), U, Mode, ToConst);
      return visitValue(LeftPtr ? BO->getRHS() : BO->getLHS());
    }
    if (BO->isCommaOp()) {
      visitValue(BO->getLHS());
      return consumePointer(BO->getRHS(), U, Mode, ToConst);
    }
    if (BO->isAssignmentOp()) {
      visitValue(BO);
      std::set<ObjectId> Ids;
      if (U == Use::Element &&
          rawPointerTargets(BO->getRHS(), Table, Facts, Ids))
        addRaw(E, Ids, Mode, std::string("element ") + modeWord(Mode));
      return;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp())
      return consumePointer(UO->getSubExpr(), U, Mode, ToConst);
    if (UO->getOpcode() == UO_AddrOf) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (U == Use::Element)
        return visitLValue(Sub, Mode);
      visitLValue(Sub, Access::None);
      // `&b[i]` kept: like data(), the buffer escapes.
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(Sub);
      if (U == Use::Store && Op && Op->getOperator() == OO_Subscript &&
          isBufferType(Op->getArg(0)->getType())) {
        add(E, Op->getArg(0), ToConst ? Access::Read : Access::ReadWrite,
            ToConst ? "an element's address read through a pointer to const"
                    : "an element's address is kept",
            false, !ToConst);
        markBinding(E);
      }
      return;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    visitValue(CO->getCond());
    consumePointer(CO->getTrueExpr(), U, Mode, ToConst);
    return consumePointer(CO->getFalseExpr(), U, Mode, ToConst);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callResult(Call, U, Mode);
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E) ||
      isa<IntegerLiteral>(E))
    return;
  visitValue(E);
}

void HostWalker::pointerVariable(const Expr *Var, const Expr *Site, Use U,
                                 Access Mode) {
  Var = Var->IgnoreParens();
  const auto *DRE = dyn_cast<DeclRefExpr>(Var);
  if (!DRE) {
    // A pointer kept in an array or a struct: its storage is read.
    return visitLValue(Var, Access::Read);
  }
  if (U != Use::Element)
    return;
  std::set<ObjectId> Ids;
  size_t Before = Events.size();
  if (rawPointerTargets(DRE, Table, Facts, Ids))
    addRaw(Site, Ids, Mode,
           std::string("element ") + modeWord(Mode) + " through '" +
               DRE->getDecl()->getNameAsString() + "'");
  // `float *p = u->data();`: a line before the statement names the buffer
  // as `*u`, whichever buffer u points to then.
  if (const auto *P = dyn_cast<VarDecl>(DRE->getDecl());
      P && Events.size() == Before + 1)
    Events.back().Spelling = Ranges.pointeeSpelling(P);
}

void HostWalker::callResult(const CallExpr *Call, Use U, Access Mode) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
      MC && isBufferElementAccessor(MC))
    return consumePointer(Call, U, Mode);
  visitCall(Call);
  if (U != Use::Element || Mode == Access::None)
    return;
  std::set<ObjectId> Ids;
  if (rawPointerTargets(Call, Table, Facts, Ids))
    return addRaw(Call, Ids, Mode,
                  std::string("element ") + modeWord(Mode) +
                      " through the iterator it returns");
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || isa<CXXMemberCallExpr>(Call) ||
      isa<CXXOperatorCallExpr>(Call) || !Callee->getDefinition() ||
      !Callee->getDefinition()->hasBody() || inSystemHeader(Callee))
    return;
  Callee = Callee->getDefinition();
  for (unsigned I : Summaries.pointers().returnsInto(Callee)) {
    if (I >= Call->getNumArgs() || I >= Callee->getNumParams())
      continue;
    if (Callee->getParamDecl(I)->getType()->isReferenceType())
      visitLValue(Call->getArg(I), Mode);
    else
      consumePointer(Call->getArg(I), Use::Element, Mode);
  }
}

void HostWalker::bindPointer(const VarDecl *P, const Expr *Init) {
  const VarDecl *Saved = Binding;
  Binding = P && everyUseFollowed(P, Table.function()) ? P : nullptr;
  consumePointer(Init, Use::Store);
  Binding = Saved;
}

void HostWalker::markBinding(const Expr *Site) {
  if (Binding && !Events.empty() && Events.back().Site == Site &&
      Events.back().Escapes && !Escaping)
    Events.back().OnlyBinds = true;
}

} // namespace ferry
