// Host events: expressions. Which values are loaded and which lvalues are
// read or written (an assignment, `b[i]`, `*p`, a constructor's reference
// argument), with the C++ traps that hide an access: a non-const operator[]
// used only as an rvalue reads; `(void)b[0]` loads nothing; an lvalue used
// where Ferry does not know how is read and written.

#include "analyses/host/HostEventWalker.h"

#include "analyses/CallGraphs.h"

#include "analyses/host/HostAccessInternal.h"
#include "analyses/paths/ObjectTable.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ferry {

void HostWalker::visitChildren(const Expr *E) {
  for (const Stmt *Child : E->children())
    if (Child)
      walkStmt(Child);
}

void HostWalker::visitValue(const Expr *E) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E);
      CE && CE->getCastKind() == CK_ToVoid) {
    // `(void)b[0];` discards the value: an lvalue is not even loaded.
    if (CE->getSubExpr()->isGLValue())
      return visitLValue(CE->getSubExpr(), Access::None);
    return visitValue(CE->getSubExpr());
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_LValueToRValue) {
      // A buffer pointer's value kept where Ferry does not follow it (an
      // aggregate's member, `Pair pr{p, q}`, a constructor's argument):
      // as the buffer's address.
      if (refersToBuffer(ICE->getType()) && ICE->getType()->isPointerType())
        return add(ICE, ICE, Access::ReadWrite, "its address is kept",
                   false, true);
      if (ICE->getType()->isPointerType())
        return consumePointer(ICE, Use::Store);
      return visitLValue(ICE->getSubExpr(), Access::Read);
    }
    if (ICE->getType()->isPointerType() &&
        ICE->getSubExpr()->getType()->isPointerType() &&
        !refersToBuffer(ICE->getType()))
      return consumePointer(ICE, Use::Store);
    if (ICE->getCastKind() == CK_PointerToBoolean)
      return consumePointer(ICE, Use::Compare);
    return visitValue(ICE->getSubExpr());
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    QualType LT = BO->getLHS()->getType();
    if (BO->getOpcode() == BO_Assign) {
      if (refersToBuffer(LT) && !isBufferType(LT))
        return visitAliasInit(BO->getRHS()); // `p = &b;` on Buffer<T>*
      // C++17 sequences the right operand of an assignment first.
      if (LT->isPointerType()) {
        const auto *R =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        bindPointer(R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr,
                    BO->getRHS());
        return visitLValue(BO->getLHS(), Access::None);
      }
      visitValue(BO->getRHS());
      return visitLValue(BO->getLHS(), Access::Write);
    }
    if (BO->isCompoundAssignmentOp()) {
      visitValue(BO->getRHS());
      if (LT->isPointerType()) // `p += 2`: pointer arithmetic
        return;
      return visitLValue(BO->getLHS(), Access::ReadWrite);
    }
    // `p != &tmp` compares which buffer a pointer names: no element is
    // touched and no address is kept.
    if (BO->isComparisonOp() && LT->isPointerType() && refersToBuffer(LT)) {
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
        const auto *UO = dyn_cast<UnaryOperator>(Side->IgnoreParenImpCasts());
        const auto *Load = dyn_cast<ImplicitCastExpr>(Side->IgnoreParens());
        if ((UO && UO->getOpcode() == UO_AddrOf) ||
            (Load && Load->getCastKind() == CK_LValueToRValue))
          continue;
        visitValue(Side);
      }
      return;
    }
    if ((BO->isComparisonOp() ||
         (BO->getOpcode() == BO_Sub && !BO->getType()->isPointerType())) &&
        LT->isPointerType() && !refersToBuffer(LT)) {
      consumePointer(BO->getLHS(), Use::Compare);
      return consumePointer(BO->getRHS(), Use::Compare);
    }
    if (BO->isAdditiveOp() && BO->getType()->isPointerType())
      return consumePointer(BO, Use::Store);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp()) {
      if (UO->getSubExpr()->getType()->isPointerType())
        return; // pointer arithmetic on a pointer variable
      return visitLValue(UO->getSubExpr(), Access::ReadWrite);
    }
    if (UO->getOpcode() == UO_AddrOf) {
      if (refersToBuffer(E->getType())) {
        // A buffer's address handed somewhere Ferry does not follow.
        visitAliasInit(UO->getSubExpr());
        return add(E, UO->getSubExpr(), Access::ReadWrite,
                   "its address is kept", false, true);
      }
      return consumePointer(E, Use::Store);
    }
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript &&
        isBufferType(Op->getArg(0)->getType()))
      return visitLValue(E, Access::ReadWrite);
    if (Op->getOperator() == OO_Equal &&
        isBufferType(Op->getArg(0)->getType())) {
      addKind(HostEventKind::Reset, Op->getArg(0), "assigned");
      addKind(HostEventKind::Reset, Op->getArg(1), "moved from");
      return;
    }
    // `grid += x` with an operator the user wrote, a member or not: a call.
    const FunctionDecl *Callee = Op->getDirectCallee();
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (Callee && Op->isAssignmentOp() && Callee->isUserProvided() &&
        !Callee->isInStdNamespace() && !isRuntimeFunction(Callee) &&
        !(M && (M->getParent()->isInStdNamespace() ||
                isBufferType(QualType(M->getParent()->getTypeForDecl(), 0)))))
      return visitCall(Op);
    // `outer = std::move(other)` with the compiler's operator, for a class
    // holding buffers: each member assigned, and a moved-from one changed
    // (the members' own operators may be the user's).
    if (M && Op->isAssignmentOp() && !M->isUserProvided() &&
        !M->getParent()->isInStdNamespace() &&
        holdsBuffers(QualType(M->getParent()->getTypeForDecl(), 0)) &&
        !isBufferType(QualType(M->getParent()->getTypeForDecl(), 0)) &&
        Op->getNumArgs() == 2) {
      bool Move = M->isMoveAssignmentOperator();
      if (!objectArgument(Op->getArg(0), Access::ReadWrite, false, "assigned"))
        visitLValue(Op->getArg(0), Access::Write);
      if (!objectArgument(Op->getArg(1), Move ? Access::ReadWrite : Access::Read,
                          false, Move ? "moved from" : "copied from"))
        visitValue(Op->getArg(1));
      return;
    }
    if (Op->isAssignmentOp()) {
      visitValue(Op->getArg(1));
      return visitLValue(Op->getArg(0), Op->getOperator() == OO_Equal
                                            ? Access::Write
                                            : Access::ReadWrite);
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return visitCall(Call);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      QualType PT;
      if (Ctor && I < Ctor->getNumParams())
        PT = Ctor->getParamDecl(I)->getType();
      bool ByRef = !PT.isNull() && PT->isReferenceType();
      bool Const = ByRef && PT.getNonReferenceType().isConstQualified();
      if (ByRef && isBufferType(CE->getType()) &&
          isBufferType(CE->getArg(I)->getType()))
        // A buffer moved into a parameter or a temporary.
        addKind(HostEventKind::Reset, CE->getArg(I), "moved from");
      else if (!ByRef && isStdIteratorParameter(Ctor, I) &&
          CE->getArg(I)->getType()->isPointerType())
        consumePointer(CE->getArg(I), Use::Element, Access::Read);
      else if (ByRef && refersToBuffer(CE->getArg(I)->getType()))
        add(CE->getArg(I), CE->getArg(I),
            Const ? Access::Read : Access::ReadWrite,
            "passed to a constructor", false, !Const);
      // An object of buffers by reference or pointer: its members, by the
      // rule for a call Ferry cannot see (the object may keep the
      // reference).
      else if ((ByRef || (!PT.isNull() && PT->isPointerType())) &&
               objectArgument(CE->getArg(I),
                              Const || isPointerToConst(PT) ? Access::Read
                                                             : Access::ReadWrite,
                              !(Const || isPointerToConst(PT)),
                              "passed to a constructor"))
        continue;
      else if (ByRef)
        visitLValue(CE->getArg(I), Const ? Access::Read : Access::ReadWrite);
      else
        visitValue(CE->getArg(I));
    }
    return;
  }
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
    // A lambda that captures a buffer, or a pointer into one, may do
    // anything with it, here and wherever it is called (capturedBuffers).
    capturedBuffers(Lambda->getLambdaClass(), Lambda, "captured by a lambda");
    auto Init = Lambda->capture_init_begin();
    for (const LambdaCapture &C : Lambda->captures()) {
      const Expr *CapInit = Init != Lambda->capture_init_end() ? *Init : nullptr;
      if (Init != Lambda->capture_init_end())
        ++Init;
      if (!C.capturesVariable())
        continue;
      const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
      if (!V)
        continue;
      std::set<ObjectId> Ids;
      if (!refersToBuffer(V->getType()) && CapInit &&
          rawPointerTargets(CapInit, Table, Facts, Ids))
        addRaw(CapInit, Ids, Access::ReadWrite,
               "a pointer into it is captured by a lambda", true);
    }
    return;
  }
  if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) ||
      isa<ArraySubscriptExpr>(E) ||
      (isa<UnaryOperator>(E) &&
       cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    // An lvalue whose use Ferry does not know: assume the worst.
    EscapeScope Scope(*this, refersToBuffer(E->getType()));
    return visitLValue(E, Access::ReadWrite);
  }
  visitChildren(E);
}

void HostWalker::visitLValue(const Expr *E, Access Mode) {
  E = E->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
      ICE && ICE->getCastKind() != CK_LValueToRValue)
    return visitLValue(ICE->getSubExpr(), Mode);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript &&
      isBufferType(Op->getArg(0)->getType())) {
    visitAliasInit(Op->getArg(0));
    visitValue(Op->getArg(1));
    // A const buffer's operator[] hands out a const element.
    if (Op->getArg(0)->getType().isConstQualified() && Mode != Access::None)
      Mode = Access::Read;
    size_t Before = Events.size();
    add(E, Op->getArg(0), Mode, std::string("element ") + modeWord(Mode));
    if (Mode == Access::Write && Events.size() == Before + 1)
      Counts.countElementStore(Events.back(), Op);
    return elementRange(Before, E, nullptr, Op->getArg(1), Mode);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isBufferType(ME->getType())) {
      add(E, E, Mode == Access::None ? Access::None : Access::ReadWrite,
          "used");
      return;
    }
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return visitValue(ME->getBase());
    return ME->isArrow() ? consumePointer(ME->getBase(), Use::Element, Mode)
                         : visitLValue(ME->getBase(), Mode);
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    visitValue(AS->getIdx());
    size_t Before = Events.size();
    consumePointer(AS->getBase(), Use::Element, Mode);
    return elementRange(Before, E, AS->getBase(), AS->getIdx(), Mode);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref) {
    if (refersToBuffer(E->getType())) {
      add(E, E, Mode == Access::None ? Access::None : Access::ReadWrite,
          "used");
      return;
    }
    size_t Before = Events.size();
    consumePointer(UO->getSubExpr(), Use::Element, Mode);
    return elementRange(Before, E, UO->getSubExpr(), nullptr, Mode);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    QualType T = DRE->getDecl()->getType();
    if (refersToBuffer(T)) {
      if (!T->isPointerType())
        add(E, E, Mode == Access::None ? Access::None : Access::ReadWrite,
            "used");
      return;
    }
    // A reference bound to a buffer's element (`float &r = b[2];`); the
    // variable of a range-for over a buffer is the loop's event.
    std::set<ObjectId> Ids;
    if (T->isReferenceType() && !LoopElements.count(DRE->getDecl()) &&
        rawPointerTargets(DRE, Table, Facts, Ids))
      addRaw(E, Ids, Mode,
             std::string("element ") + modeWord(Mode) + " through '" +
                 DRE->getDecl()->getNameAsString() + "'");
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    visitValue(CO->getCond());
    visitLValue(CO->getTrueExpr(), Mode);
    return visitLValue(CO->getFalseExpr(), Mode);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->isGLValue())
    return callResult(Call, Use::Element, Mode);
  visitValue(E);
}

} // namespace ferry
