// Element ranges: pointers (see ElementRanges.h). How far past its buffer's
// start a pointer points (`b.data() + a`, `&b[a]`, a pointer variable every
// binding of which is a buffer's start), and how a line before the
// statement names the buffer a pointer variable points into.

#include "analyses/host/ElementRanges.h"

#include "analyses/host/ElementRangesInternal.h"
#include "analyses/LoopShape.h"
#include "model/FerryTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <functional>

using namespace clang;

namespace ferry {

// --- pointers ----------------------------------------------------------------

/// P is a local pointer every binding of which is a buffer's start (data(),
/// begin(), &b[0]): never stepped, offset, or handed out to be changed.
bool ElementRanges::zeroOffsetPointer(const VarDecl *P) const {
  auto It = ZeroOffset.find(P);
  if (It != ZeroOffset.end())
    return It->second;
  auto AtStart = [&](const Expr *E) {
    std::optional<RangeText> O = E ? offsetWith(E, nullptr, nullptr) : std::nullopt;
    return O && O->Const && *O->Const == 0 && !isa<DeclRefExpr>(E->IgnoreParenCasts());
  };
  auto Null = [&](const Expr *E) {
    return !E || E->isNullPointerConstant(Ctx(), Expr::NPC_ValueDependentIsNotNull);
  };
  bool Ok = P->hasLocalStorage() && !isa<ParmVarDecl>(P) &&
            P->getType()->isPointerType() &&
            (Null(P->getInit()) || AtStart(P->getInit()));
  ZeroOffset[P] = false; // while the bindings are checked (a = b; b = a)
  if (Ok && Table.function()->hasBody()) {
    struct Bindings : RecursiveASTVisitor<Bindings> {
      const VarDecl *P;
      std::function<bool(const Expr *)> AtStart;
      bool Ok = true;
      bool names(const Expr *E) const {
        const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return R && R->getDecl() == P;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        if (B->isAssignmentOp() && names(B->getLHS()))
          Ok = Ok && B->getOpcode() == BO_Assign && AtStart(B->getRHS());
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
            names(U->getSubExpr()))
          Ok = false;
        return true;
      }
      bool VisitVarDecl(VarDecl *D) {
        if (D->getType()->isReferenceType() &&
            !D->getType().getNonReferenceType().isConstQualified() &&
            D->getInit() && names(D->getInit()))
          Ok = false;
        return true;
      }
      bool VisitCallExpr(CallExpr *Call) {
        const FunctionDecl *F = Call->getDirectCallee();
        for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
          const Expr *A = Call->getArg(I);
          if (!A->isGLValue() || !names(A))
            continue;
          unsigned Skip = isa<CXXOperatorCallExpr>(Call) && F &&
                                  isa<CXXMethodDecl>(F)
                              ? 1
                              : 0;
          if (I < Skip)
            continue;
          QualType T = F && I - Skip < F->getNumParams()
                           ? F->getParamDecl(I - Skip)->getType()
                           : QualType();
          if (T.isNull() || (T->isReferenceType() &&
                             !T.getNonReferenceType().isConstQualified()))
            Ok = false;
        }
        return true;
      }
      bool VisitLambdaExpr(LambdaExpr *L) {
        for (const LambdaCapture &C : L->captures())
          if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
              C.getCapturedVar() == P)
            Ok = false;
        return true;
      }
    } Check;
    Check.P = P;
    Check.AtStart = [&](const Expr *E) { return Null(E) || AtStart(E); };
    Check.TraverseStmt(Table.function()->getBody());
    Ok = Check.Ok;
  }
  ZeroOffset[P] = Ok;
  return Ok;
}

QualType ElementRanges::pointee(const Expr *Pointer) {
  const Expr *E = Pointer->IgnoreParens();
  while (const auto *C = dyn_cast<CastExpr>(E)) {
    QualType To = C->getType();
    if (!To->isPointerType() || !To->getPointeeType()->isVoidType())
      break;
    E = C->getSubExpr()->IgnoreParens();
  }
  if (!E->getType()->isPointerType())
    return {};
  return E->getType()->getPointeeType().getUnqualifiedType();
}

std::optional<RangeText> ElementRanges::offsetOf(const Expr *Pointer) const {
  return offsetWith(Pointer, nullptr, nullptr);
}

/// Pointer's offset in elements with Var replaced by Lo. Casts to void*
/// (an argument of memcpy or MPI_Send) keep it; any other changes the unit.
std::optional<RangeText> ElementRanges::offsetWith(const Expr *Pointer,
                                                   const VarDecl *Var,
                                                   const RangeText *Lo) const {
  const Expr *E = Pointer->IgnoreParens();
  while (const auto *C = dyn_cast<CastExpr>(E)) {
    QualType To = C->getType();
    bool Keeps = C->getCastKind() == CK_LValueToRValue ||
                 C->getCastKind() == CK_NoOp ||
                 (To->isPointerType() && To->getPointeeType()->isVoidType()) ||
                 (To->isPointerType() &&
                  C->getSubExpr()->getType()->isPointerType() &&
                  Ctx().hasSameUnqualifiedType(
                      To->getPointeeType(),
                      C->getSubExpr()->getType()->getPointeeType()));
    if (!Keeps)
      return std::nullopt;
    E = C->getSubExpr()->IgnoreParens();
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    if (!isBufferElementAccessor(MC))
      return std::nullopt;
    llvm::StringRef N = MC->getMethodDecl()->getName();
    if (N == "end" || N == "cend")
      return sizeText(MC->getImplicitObjectArgument());
    return RangeText::constant(0);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->isAdditiveOp() && B->getType()->isPointerType()) {
    bool LeftPtr = B->getLHS()->getType()->isPointerType();
    if (!LeftPtr && B->getOpcode() == BO_Sub)
      return std::nullopt;
    const Expr *Ptr = LeftPtr ? B->getLHS() : B->getRHS();
    const Expr *Int = LeftPtr ? B->getRHS() : B->getLHS();
    if (!Ptr->getType()->isPointerType() ||
        !Ctx().hasSameUnqualifiedType(Ptr->getType()->getPointeeType(),
                                      B->getType()->getPointeeType()))
      return std::nullopt;
    std::optional<RangeText> Base = offsetWith(Ptr, Var, Lo);
    std::optional<RangeText> Step = spellWith(Int, Var, Lo);
    if (!Base || !Step)
      return std::nullopt;
    return B->getOpcode() == BO_Add ? plusText(*Base, *Step)
                                    : minusText(*Base, *Step);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
    const Expr *Sub = U->getSubExpr()->IgnoreParens();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Sub);
        Op && Op->getOperator() == OO_Subscript &&
        isBufferType(Op->getArg(0)->getType()))
      return spellWith(Op->getArg(1), Var, Lo); // &b[a]
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
      std::optional<RangeText> Base = offsetWith(AS->getBase(), Var, Lo);
      std::optional<RangeText> Step = spellWith(AS->getIdx(), Var, Lo);
      if (!Base || !Step)
        return std::nullopt;
      return plusText(*Base, *Step); // &p[a]
    }
    return std::nullopt;
  }
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    const auto *P = dyn_cast<VarDecl>(R->getDecl());
    if (P && P != Var && zeroOffsetPointer(P))
      return RangeText::constant(0);
  }
  return std::nullopt;
}

std::string ElementRanges::pointeeSpelling(const VarDecl *P) const {
  if (!P->hasLocalStorage() || !P->getType()->isPointerType() ||
      !P->getInit() || changes(Table.function()->getBody(), P))
    return "";
  const auto *MC =
      dyn_cast<CXXMemberCallExpr>(P->getInit()->IgnoreParenImpCasts());
  if (!isBufferElementAccessor(MC))
    return "";
  const Expr *Object = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  bool Deref = false;
  if (const auto *U = dyn_cast<UnaryOperator>(Object);
      U && U->getOpcode() == UO_Deref) {
    Object = U->getSubExpr()->IgnoreParenImpCasts();
    Deref = true;
  }
  const auto *R = dyn_cast<DeclRefExpr>(Object);
  const auto *W = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (!W || !refersToBuffer(W->getType()))
    return "";
  bool Pointer = W->getType()->isPointerType();
  if (Deref && !Pointer)
    return "";
  // The declaration of P and the root are statements of one block, P's
  // first; nothing between them changes W.
  DynTypedNodeList DeclParents = Ctx().getParents(*P);
  const auto *DS = DeclParents.empty() ? nullptr : DeclParents[0].get<DeclStmt>();
  if (!DS || !DS->isSingleDecl())
    return "";
  DynTypedNodeList BlockParents = Ctx().getParents(*DS);
  const auto *Block =
      BlockParents.empty() ? nullptr : BlockParents[0].get<CompoundStmt>();
  if (!Block)
    return "";
  // The statement of that block that holds the root: the root itself, or
  // one around it (`if (up != MPI_PROC_NULL) MPI_Sendrecv(p + n, …);`,
  // where the planner's lines go before the call, inside the if).
  const Stmt *Holder = Root;
  for (DynTypedNode Node = DynTypedNode::create(*Root);;) {
    DynTypedNodeList Parents = Ctx().getParents(Node);
    if (Parents.empty())
      return "";
    if (Parents[0].get<CompoundStmt>() == Block)
      break;
    Node = Parents[0];
    Holder = Node.get<Stmt>();
    if (!Holder)
      return "";
  }
  auto MayChangeW = [&](const Stmt *S) {
    return Pointer &&
           (changes(S, W) ||
            (callsAnything(S) && reachableByCalls(W, Table.function())));
  };
  bool Seen = false, Reached = false;
  for (const Stmt *S : Block->body()) {
    if (S == DS) {
      Seen = true;
      continue;
    }
    if (S == Holder) {
      Reached = Seen;
      break;
    }
    if (Seen && MayChangeW(S))
      return "";
  }
  // Around the root, code before it (a condition, earlier statements, an
  // earlier trip of a loop) may change W too: the holder must leave W alone
  // altogether.
  if (!Reached || (Holder != Root && MayChangeW(Holder)))
    return "";
  return (Pointer ? "*" : "") + W->getNameAsString();
}

} // namespace ferry
