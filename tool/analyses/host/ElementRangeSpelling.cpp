// Element ranges: spelling (see ElementRanges.h). An integer expression as a
// text that means, before the statement, what the expression means where it
// is; a counting loop's counter replaced by the loop's bounds.

#include "analyses/host/ElementRanges.h"

#include "analyses/host/ElementRangesInternal.h"
#include "analyses/LoopShape.h"
#include "model/FerryTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ferry {

namespace element_ranges {

RangeText::Binding bindingOf(const Expr *E) {
  E = E->IgnoreImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isMultiplicativeOp())
      return RangeText::Multiplicative;
    if (B->isAdditiveOp())
      return RangeText::Additive;
    return RangeText::Low;
  }
  if (isa<AbstractConditionalOperator>(E))
    return RangeText::Low;
  return RangeText::Primary;
}

bool namesVar(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == V)
    return true;
  for (const Stmt *Child : S->children())
    if (namesVar(Child, V))
      return true;
  return false;
}

bool spelledInFile(const Stmt *S) {
  if (!S)
    return true;
  if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
    return false;
  for (const Stmt *Child : S->children())
    if (!spelledInFile(Child))
      return false;
  return true;
}

bool widening(const CastExpr *C, const ASTContext &Ctx) {
  QualType To = C->getType(), From = C->getSubExpr()->getType();
  if (!To->isIntegerType() || !From->isIntegerType())
    return C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp;
  unsigned TW = Ctx.getTypeSize(To), FW = Ctx.getTypeSize(From);
  if (From->isSignedIntegerType() && To->isUnsignedIntegerType())
    return TW >= FW; // a negative index is no valid element anyway
  if (From->isUnsignedIntegerType() && To->isSignedIntegerType())
    return TW > FW;
  return TW >= FW;
}

} // namespace element_ranges

// --- spelling ------------------------------------------------------------------

/// `x.size()` or `p->size()` of a buffer or standard container named by a
/// variable that keeps its meaning, when nothing in the root resizes it.
std::optional<RangeText> ElementRanges::sizeText(const Expr *Container) const {
  const Expr *E = Container->IgnoreParenImpCasts();
  bool Arrow = false;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
    E = U->getSubExpr()->IgnoreParenImpCasts();
    Arrow = true;
  }
  const auto *R = dyn_cast<DeclRefExpr>(E);
  const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (!V || !resizesNothing())
    return std::nullopt;
  QualType T = V->getType().getNonReferenceType();
  if (T->isPointerType()) {
    Arrow = true;
    T = T->getPointeeType();
  } else if (Arrow) {
    return std::nullopt;
  }
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !(isBufferType(T) || RD->isInStdNamespace()))
    return std::nullopt;
  // A pointer may be re-pointed; a buffer or a reference keeps its buffer
  // (whose size resizesNothing vouches for), but must be in scope before
  // the root.
  if (V->getType()->isPointerType() ? !invariant(V) : declaredInRoot(V))
    return std::nullopt;
  RangeText Out;
  Out.Text = V->getNameAsString() + (Arrow ? "->size()" : ".size()");
  return Out;
}

/// A variable, literal, cast or call that is a whole term of a text.
std::optional<RangeText> ElementRanges::leaf(const Expr *E) const {
  const Expr *Bare = E->IgnoreParenImpCasts();
  if (const auto *R = dyn_cast<DeclRefExpr>(Bare)) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    QualType VT = V ? V->getType().getNonReferenceType() : QualType();
    if (!V || !VT->isIntegralOrEnumerationType() || VT.isVolatileQualified() ||
        !invariant(V))
      return std::nullopt;
    RangeText T;
    if (element_ranges::spelledInFile(Bare)) {
      T.Text = Lexer::getSourceText(
                   CharSourceRange::getTokenRange(Bare->getSourceRange()),
                   Ctx().getSourceManager(), Ctx().getLangOpts())
                   .str();
    } else if (V->isLocalVarDeclOrParm() ||
               V->getDeclContext()->getRedeclContext()->isTranslationUnit()) {
      // From a macro: the name means where the line goes what it means
      // where the macro was expanded, in the same scope.
      T.Text = V->getNameAsString();
    }
    if (T.Text.empty())
      return std::nullopt;
    return T;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Bare)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "size" &&
        MC->getNumArgs() == 0)
      return sizeText(MC->getImplicitObjectArgument());
    return std::nullopt;
  }
  if (const auto *C = dyn_cast<ExplicitCastExpr>(Bare)) {
    if (!C->getType()->isIntegerType() ||
        !C->getSubExpr()->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    std::optional<RangeText> Sub = spellWith(C->getSubExpr(), nullptr, nullptr);
    if (!Sub)
      return std::nullopt;
    RangeText T;
    T.Text = "static_cast<" +
             C->getType().getCanonicalType().getUnqualifiedType().getAsString(
                 Ctx().getPrintingPolicy()) +
             ">(" + Sub->Text + ")";
    return T;
  }
  return std::nullopt;
}

std::optional<RangeText> ElementRanges::spell(const Expr *E) const {
  return spellWith(E, nullptr, nullptr);
}

/// E's text with the variable Var (a loop's counter) replaced by Lo.
std::optional<RangeText> ElementRanges::spellWith(const Expr *E,
                                                  const VarDecl *Var,
                                                  const RangeText *Lo) const {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  bool HasVar = Var && element_ranges::namesVar(E, Var);
  if (!HasVar && !E->isValueDependent() && E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx()) && R.Val.getInt().getSignificantBits() <= 64)
      return RangeText::constant(R.Val.getInt().getExtValue());
  }
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (!ICE->getType()->isIntegralOrEnumerationType() ||
        !ICE->getSubExpr()->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    // A narrowing conversion changes what a sum of its parts is.
    if (ICE->getCastKind() == CK_IntegralCast && !element_ranges::widening(ICE, Ctx()))
      return std::nullopt;
    return spellWith(ICE->getSubExpr(), Var, Lo);
  }
  if (HasVar) {
    if (const auto *R = dyn_cast<DeclRefExpr>(E); R && R->getDecl() == Var)
      return *Lo;
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || !B->isAdditiveOp())
      return std::nullopt;
    std::optional<RangeText> L = spellWith(B->getLHS(), Var, Lo);
    std::optional<RangeText> Rt = spellWith(B->getRHS(), Var, Lo);
    if (!L || !Rt)
      return std::nullopt;
    return B->getOpcode() == BO_Add ? plusText(*L, *Rt) : minusText(*L, *Rt);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = B->getOpcode();
    bool Arithmetic = B->isAdditiveOp() || B->isMultiplicativeOp() ||
                      B->isShiftOp() || Op == BO_And || Op == BO_Or ||
                      Op == BO_Xor;
    if (!Arithmetic || !B->getType()->isIntegerType())
      return std::nullopt;
    if (element_ranges::spelledInFile(B)) {
      // As the user wrote it, once its parts are known to be pure.
      if (!spellWith(B->getLHS(), nullptr, nullptr) ||
          !spellWith(B->getRHS(), nullptr, nullptr))
        return std::nullopt;
      RangeText T;
      T.Text = Lexer::getSourceText(
                   CharSourceRange::getTokenRange(B->getSourceRange()),
                   Ctx().getSourceManager(), Ctx().getLangOpts())
                   .str();
      T.Binds = element_ranges::bindingOf(B);
      return T;
    }
    std::optional<RangeText> L = spellWith(B->getLHS(), nullptr, nullptr);
    std::optional<RangeText> Rt = spellWith(B->getRHS(), nullptr, nullptr);
    if (!L || !Rt)
      return std::nullopt;
    if (Op == BO_Add)
      return plusText(*L, *Rt);
    if (Op == BO_Sub)
      return minusText(*L, *Rt);
    RangeText T;
    if (B->isMultiplicativeOp()) {
      T.Text = (L->Binds >= RangeText::Multiplicative ? L->Text
                                                      : "(" + L->Text + ")") +
               " " + B->getOpcodeStr().str() + " " + element_ranges::primary(*Rt);
      T.Binds = RangeText::Multiplicative;
    } else {
      T.Text = element_ranges::primary(*L) + " " + B->getOpcodeStr().str() + " " + element_ranges::primary(*Rt);
      T.Binds = RangeText::Low;
    }
    return T;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = U->getOpcode();
    if (Op != UO_Minus && Op != UO_Plus && Op != UO_Not)
      return std::nullopt;
    std::optional<RangeText> Sub = spellWith(U->getSubExpr(), nullptr, nullptr);
    if (!Sub)
      return std::nullopt;
    RangeText T;
    T.Text = UnaryOperator::getOpcodeStr(Op).str() + element_ranges::primary(*Sub);
    return T;
  }
  return leaf(E);
}

std::optional<RangeText> ElementRanges::countOf(const Expr *E) const {
  std::optional<RangeText> T = spell(E);
  if (!T)
    return std::nullopt;
  if (T->Const)
    return RangeText::constant(*T->Const > 0 ? *T->Const : 0);
  return tripCountText(RangeText::constant(0), *T);
}

std::optional<RangeText> ElementRanges::lengthOf(const Expr *First,
                                                 const Expr *Last,
                                                 bool SameBuffer) const {
  if (SameBuffer) {
    std::optional<RangeText> F = offsetOf(First), L = offsetOf(Last);
    if (F && L)
      return minusText(*L, *F);
  }
  const auto *B = dyn_cast<CXXMemberCallExpr>(First->IgnoreParenImpCasts());
  const auto *E = dyn_cast<CXXMemberCallExpr>(Last->IgnoreParenImpCasts());
  if (B && E && B->getMethodDecl() && E->getMethodDecl() &&
      B->getMethodDecl()->getIdentifier() &&
      E->getMethodDecl()->getIdentifier()) {
    llvm::StringRef BN = B->getMethodDecl()->getName(),
                    EN = E->getMethodDecl()->getName();
    const auto *BO = dyn_cast<DeclRefExpr>(
        B->getImplicitObjectArgument()->IgnoreParenImpCasts());
    const auto *EO = dyn_cast<DeclRefExpr>(
        E->getImplicitObjectArgument()->IgnoreParenImpCasts());
    if (((BN == "begin" && EN == "end") || (BN == "cbegin" && EN == "cend")) &&
        BO && EO && BO->getDecl() == EO->getDecl())
      return sizeText(B->getImplicitObjectArgument());
    return std::nullopt;
  }
  // `p, p + n`: the same pointer twice, without side effects.
  const auto *Add = dyn_cast<BinaryOperator>(Last->IgnoreParenImpCasts());
  if (First->getType()->isPointerType() && Add && Add->getOpcode() == BO_Add &&
      !First->HasSideEffects(Ctx()) &&
      Expr::isSameComparisonOperand(First, Add->getLHS()) &&
      Add->getRHS()->getType()->isIntegerType())
    return spell(Add->getRHS());
  return std::nullopt;
}

// --- loops -------------------------------------------------------------------

/// `for (i = lo; i < hi; ++i)` (or `int i = lo`, `i <= hi`, `i != hi`, `hi
/// > i`, `i++`, `i += 1`): the counter, nothing in the body changes it, and
/// its bounds as texts that hold before the root.
std::optional<ElementRanges::Loop>
ElementRanges::walkedLoop(const ForStmt *For) const {
  const VarDecl *V = nullptr;
  const Expr *LoExpr = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
      DS && DS->isSingleDecl()) {
    V = dyn_cast<VarDecl>(DS->getSingleDecl());
    LoExpr = V ? V->getInit() : nullptr;
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(For->getInit());
             A && A->getOpcode() == BO_Assign) {
    if (const auto *R = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts()))
      V = dyn_cast<VarDecl>(R->getDecl());
    LoExpr = A->getRHS();
  }
  if (!V || !LoExpr || !V->getType()->isIntegerType() ||
      V->getType().isVolatileQualified() || !For->getCond() || !For->getInc() ||
      For->getConditionVariable())
    return std::nullopt;
  auto Names = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == V;
  };
  // The first value is the bound's value converted to the counter's type:
  // the same when that type holds every value of the bound's.
  const Expr *LoBare = LoExpr->IgnoreImpCasts();
  if (LoBare->getType()->isIntegerType()) {
    unsigned CW = Ctx().getTypeSize(V->getType()),
             LW = Ctx().getTypeSize(LoBare->getType());
    bool Fits = V->getType()->isSignedIntegerType() ==
                        LoBare->getType()->isSignedIntegerType()
                    ? CW >= LW
                    : V->getType()->isSignedIntegerType() && CW > LW;
    Expr::EvalResult R;
    if (!Fits && !(!LoBare->isValueDependent() &&
                   LoBare->EvaluateAsInt(R, Ctx())))
      return std::nullopt;
  }
  const auto *Cond =
      dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Cond)
    return std::nullopt;
  const Expr *HiExpr = nullptr;
  bool Inclusive = false, NotEqual = false;
  if (Names(Cond->getLHS()) &&
      (Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_LE ||
       Cond->getOpcode() == BO_NE)) {
    HiExpr = Cond->getRHS();
    Inclusive = Cond->getOpcode() == BO_LE;
    NotEqual = Cond->getOpcode() == BO_NE;
  } else if (Names(Cond->getRHS()) &&
             (Cond->getOpcode() == BO_GT || Cond->getOpcode() == BO_GE ||
              Cond->getOpcode() == BO_NE)) {
    HiExpr = Cond->getLHS();
    Inclusive = Cond->getOpcode() == BO_GE;
    NotEqual = Cond->getOpcode() == BO_NE;
  } else {
    return std::nullopt;
  }
  // `i != hi` from above hi wraps: an overflow no valid program makes for a
  // signed counter, and a pass over more elements than any buffer holds for
  // a 64-bit unsigned one; a narrower unsigned counter could come round.
  if (NotEqual && V->getType()->isUnsignedIntegerType() &&
      Ctx().getTypeSize(V->getType()) < 64)
    return std::nullopt;
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  bool Step1 = false;
  Expr::EvalResult One;
  if (const auto *U = dyn_cast<UnaryOperator>(Inc))
    Step1 = U->isIncrementOp() && Names(U->getSubExpr());
  else if (const auto *B = dyn_cast<CompoundAssignOperator>(Inc))
    Step1 = B->getOpcode() == BO_AddAssign && Names(B->getLHS()) &&
            !B->getRHS()->isValueDependent() &&
            B->getRHS()->EvaluateAsInt(One, Ctx()) && One.Val.getInt() == 1;
  if (!Step1 || changes(For->getBody(), V) || changes(For->getCond(), V) ||
      element_ranges::namesVar(HiExpr, V) || element_ranges::namesVar(LoExpr, V) ||
      (reachableByCalls(V, Table.function()) && callsAnything(For)))
    return std::nullopt;
  std::optional<RangeText> Lo = spell(LoExpr), Hi = spell(HiExpr);
  if (!Lo || !Hi)
    return std::nullopt;
  if (Inclusive) {
    Hi = plusText(*Hi, RangeText::constant(1));
    if (!Hi)
      return std::nullopt;
  }
  return Loop{For, V, *Lo, *Hi};
}

/// V occurs in E exactly once, counted with coefficient one: through sums,
/// the left of a difference, pointer arithmetic and widening conversions.
bool ElementRanges::unitIn(const Expr *E, const VarDecl *V) const {
  E = E->IgnoreParens();
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    return R->getDecl() == V;
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
    return (C->getType()->isPointerType() || element_ranges::widening(C, Ctx())) &&
           unitIn(C->getSubExpr(), V);
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    bool L = element_ranges::namesVar(B->getLHS(), V), R = element_ranges::namesVar(B->getRHS(), V);
    if (L == R)
      return false;
    if (B->getOpcode() == BO_Add)
      return unitIn(L ? B->getLHS() : B->getRHS(), V);
    if (B->getOpcode() == BO_Sub)
      return L && unitIn(B->getLHS(), V);
    return false;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return unitIn(U->getSubExpr(), V);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
    return !element_ranges::namesVar(Op->getArg(0), V) && unitIn(Op->getArg(1), V);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    bool B = element_ranges::namesVar(AS->getBase(), V), I = element_ranges::namesVar(AS->getIdx(), V);
    return B != I && unitIn(B ? AS->getBase() : AS->getIdx(), V);
  }
  return false;
}

/// The variables of E (not pointers: offsetOf follows those) whose value
/// may differ inside the root from before it.
void ElementRanges::varying(const Expr *E,
                            std::set<const VarDecl *> &Out) const {
  if (!E)
    return;
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
        V && V->getType().getNonReferenceType()->isIntegralOrEnumerationType() &&
        !invariant(V))
      Out.insert(V);
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<Expr>(Child))
      varying(C, Out);
}

} // namespace ferry
