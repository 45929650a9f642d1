// Element ranges (see ElementRanges.h): the texts of the elements a host
// event touches, and the checks that make them mean, before the statement,
// what the access means inside it.

#include "analyses/host/ElementRanges.h"

#include "analyses/host/HostAccessInternal.h"
#include "analyses/LoopShape.h"
#include "model/FerryTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <cctype>
#include "clang/Lex/Lexer.h"

#include <functional>
#include <limits>

using namespace clang;

namespace ferry {

// --- texts -------------------------------------------------------------------

RangeText RangeText::constant(long long V) {
  RangeText T;
  T.Text = V < 0 ? "(" + std::to_string(V) + ")" : std::to_string(V);
  T.Const = V;
  return T;
}

namespace element_ranges {

/// A as an operand of `+` or `-`: on the left a sum reads as it is; on the
/// right it needs parentheses (`a - (b + c)`).
std::string operand(const RangeText &A, bool Right) {
  bool Paren = Right ? A.Binds <= RangeText::Additive
                     : A.Binds < RangeText::Additive;
  return Paren ? "(" + A.Text + ")" : A.Text;
}

std::string primary(const RangeText &A) {
  return A.Binds == RangeText::Primary ? A.Text : "(" + A.Text + ")";
}

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

/// Every location in S is in a file, none in a macro: its source text is
/// what it means.
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

/// An integer conversion that keeps every value (int -> long, not long ->
/// int): a counter seen through it still steps by one.
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


std::optional<RangeText> plusText(const RangeText &A, const RangeText &B) {
  if (A.Const && B.Const) {
    long long S;
    if (__builtin_add_overflow(*A.Const, *B.Const, &S))
      return std::nullopt;
    return RangeText::constant(S);
  }
  if (B.Const && *B.Const == 0)
    return A;
  if (A.Const && *A.Const == 0)
    return B;
  if (B.Const && *B.Const < 0 && *B.Const != std::numeric_limits<long long>::min())
    return minusText(A, RangeText::constant(-*B.Const));
  RangeText T;
  T.Text = element_ranges::operand(A, false) + " + " + element_ranges::operand(B, true);
  T.Binds = RangeText::Additive;
  return T;
}

std::optional<RangeText> minusText(const RangeText &A, const RangeText &B) {
  if (A.Const && B.Const) {
    long long S;
    if (__builtin_sub_overflow(*A.Const, *B.Const, &S))
      return std::nullopt;
    return RangeText::constant(S);
  }
  if (B.Const && *B.Const == 0)
    return A;
  if (A.Text == B.Text && A.Binds == RangeText::Primary)
    return RangeText::constant(0);
  RangeText T;
  T.Text = element_ranges::operand(A, false) + " - " + element_ranges::operand(B, true);
  T.Binds = RangeText::Additive;
  return T;
}

RangeText tripCountText(const RangeText &Lo, const RangeText &Hi) {
  if (Lo.Const && Hi.Const) {
    long long N;
    if (!__builtin_sub_overflow(*Hi.Const, *Lo.Const, &N))
      return RangeText::constant(N > 0 ? N : 0);
  }
  RangeText T;
  T.Text = "ferry::tripCount(" + Lo.Text + ", " + Hi.Text + ")";
  return T;
}

bool substituteNames(std::string &Text,
                     const std::map<std::string, std::string> &Names) {
  static const std::set<std::string> Kept = {"ferry", "tripCount", "sizeof"};
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    unsigned char C = Text[I];
    if (!(std::isalpha(C) || C == '_')) {
      Out += Text[I++];
      continue;
    }
    size_t J = I;
    while (J < Text.size() &&
           (std::isalnum(static_cast<unsigned char>(Text[J])) || Text[J] == '_'))
      ++J;
    std::string Word = Text.substr(I, J - I);
    bool Member = (!Out.empty() && Out.back() == '.') ||
                  (Out.size() >= 2 && Out.compare(Out.size() - 2, 2, "->") == 0);
    if (auto It = Names.find(Word); It != Names.end() && !Member)
      Out += It->second;
    else if (Member || Kept.count(Word))
      Out += Word;
    else
      return false;
    I = J;
  }
  Text = Out;
  return true;
}

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

/// S may change V (LoopShape's changes()), except through a dispatch:
/// cc.dispatch takes its arguments by forwarding reference, but a kernel
/// gets its scalars by value, so only what an argument's own expression
/// does counts.
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

ElementRanges::ElementRanges(const ObjectTable &Table, const Stmt *Root)
    : Table(Table), Root(Root) {}

ASTContext &ElementRanges::Ctx() const {
  return Table.function()->getASTContext();
}

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

// --- ranges --------------------------------------------------------------------

/// The store at Site assigns its element whole: `b[i] = v`, or a struct's
/// trivial (or defaulted) assignment, not one member's.
bool ElementRanges::wholeAssignment(const Expr *Site) const {
  DynTypedNode Node = DynTypedNode::create(*Site);
  const Stmt *Child = Site;
  for (;;) {
    DynTypedNodeList Parents = Ctx().getParents(Node);
    if (Parents.empty())
      return false;
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return false;
    if (isa<ParenExpr>(Parent) ||
        (isa<ImplicitCastExpr>(Parent) &&
         cast<ImplicitCastExpr>(Parent)->getCastKind() == CK_NoOp)) {
      Node = Parents[0];
      Child = Parent;
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(Parent))
      return B->getOpcode() == BO_Assign && B->getLHS() == Child;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent)) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
      return Op->getOperator() == OO_Equal && Op->getArg(0) == Child && M &&
             (M->isTrivial() || M->isDefaulted());
    }
    return false;
  }
}

bool ElementRanges::runsWhenever(const Stmt *S) const {
  if (S == Root)
    return true;
  DynTypedNode Node = DynTypedNode::create(*S);
  const Stmt *Child = S;
  while (Child != Root) {
    DynTypedNodeList Parents = Ctx().getParents(Node);
    if (Parents.empty())
      return false;
    Node = Parents[0];
    // A variable's initialiser runs with its declaration.
    if (Node.get<Decl>() && !Node.get<Stmt>())
      continue;
    const Stmt *Parent = Node.get<Stmt>();
    if (!Parent)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (Child == If->getThen() || Child == If->getElse())
        return false;
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      if (Child != For->getInit() && Child != For->getCond())
        return false;
    } else if (const auto *W = dyn_cast<WhileStmt>(Parent)) {
      if (Child != W->getCond())
        return false;
    } else if (const auto *Do = dyn_cast<DoStmt>(Parent)) {
      if (Child != Do->getBody())
        return false;
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(Parent)) {
      if (Child != RF->getInit() && Child != RF->getRangeStmt())
        return false;
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(Parent)) {
      if (Child != Sw->getCond() && Child != Sw->getInit())
        return false;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
      if (Child != CO->getCond())
        return false;
    } else if (isa<BinaryConditionalOperator>(Parent) ||
               isa<LambdaExpr>(Parent) || isa<SwitchCase>(Parent)) {
      return false;
    } else if (const auto *B = dyn_cast<BinaryOperator>(Parent)) {
      if (B->isLogicalOp() && Child == B->getRHS())
        return false;
    } else if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      // A statement before it may return, break, continue, goto or throw.
      for (const Stmt *Before : CS->body()) {
        if (Before == Child)
          break;
        if (mayExitEarly(Before))
          return false;
      }
    }
    Child = Parent;
  }
  return true;
}

std::optional<ElementRange> ElementRanges::element(const Expr *Site,
                                                   const Expr *Pointer,
                                                   const Expr *Index,
                                                   bool WholeWrite) {
  std::set<const VarDecl *> Vary;
  varying(Index, Vary);
  if (Pointer)
    varying(Pointer, Vary);
  if (Vary.size() > 1)
    return std::nullopt;
  const VarDecl *Var = Vary.empty() ? nullptr : *Vary.begin();
  std::optional<Loop> L;
  if (Var) {
    // The innermost loop inside the root, with Site in its body, whose
    // counter Var is.
    DynTypedNode Node = DynTypedNode::create(*Site);
    const Stmt *Child = Site;
    while (Child != Root && !L) {
      DynTypedNodeList Parents = Ctx().getParents(Node);
      if (Parents.empty())
        return std::nullopt;
      Node = Parents[0];
      const Stmt *Parent = Node.get<Stmt>();
      if (!Parent) {
        if (Node.get<Decl>())
          continue;
        return std::nullopt;
      }
      if (const auto *For = dyn_cast<ForStmt>(Parent);
          For && Child == For->getBody())
        if (std::optional<Loop> W = walkedLoop(For); W && W->Var == Var)
          L = W;
      Child = Parent;
    }
    if (!L)
      return std::nullopt;
    bool InIndex = Index && element_ranges::namesVar(Index, Var);
    bool InPointer = Pointer && element_ranges::namesVar(Pointer, Var);
    if (InIndex == InPointer ||
        !unitIn(InIndex ? Index : Pointer, Var))
      return std::nullopt;
  }
  const RangeText *Lo = L ? &L->Lo : nullptr;
  std::optional<RangeText> Base =
      Pointer ? offsetWith(Pointer, Var, Lo) : RangeText::constant(0);
  std::optional<RangeText> At =
      Index ? spellWith(Index, Var, Lo) : RangeText::constant(0);
  if (!Base || !At)
    return std::nullopt;
  std::optional<RangeText> First = plusText(*Base, *At);
  if (!First)
    return std::nullopt;
  RangeText Count = L ? tripCountText(L->Lo, L->Hi) : RangeText::constant(1);
  ElementRange R;
  R.First = First->Text;
  R.FirstConst = First->Const;
  R.Count = Count.Text;
  R.CountConst = Count.Const;
  if (WholeWrite && wholeAssignment(Site)) {
    if (!L) {
      R.Covers = runsWhenever(Site);
    } else {
      const auto *For = cast<ForStmt>(L->Stmt);
      // Every trip stores its element: nothing skips the store, and nothing
      // ends the loop before its bound.
      bool EveryTrip = !mayExitEarly(For->getBody());
      {
        ElementRanges Body(Table, For->getBody());
        EveryTrip = EveryTrip && Body.runsWhenever(Site);
      }
      R.Covers = EveryTrip && runsWhenever(For);
      if (R.Covers)
        CoveringLoop[Site] = For;
    }
  }
  return R;
}

ElementRange ElementRanges::span(const Expr *Site, const RangeText &First,
                                 const RangeText &Count, bool Write) const {
  ElementRange R;
  R.First = First.Text;
  R.FirstConst = First.Const;
  R.Count = Count.Text;
  R.CountConst = Count.Const;
  R.Covers = Write && runsWhenever(Site);
  return R;
}

std::optional<RangeText> ElementRanges::elementsIn(const Expr *Bytes,
                                                   QualType Element,
                                                   bool &Exact) const {
  Exact = false;
  if (Element.isNull() || Element->isIncompleteType() ||
      Element->isDependentType())
    return std::nullopt;
  long long Size = Ctx().getTypeSizeInChars(Element).getQuantity();
  if (Size <= 0)
    return std::nullopt;
  std::optional<RangeText> N = spell(Bytes);
  if (!N)
    return std::nullopt;
  if (N->Const) {
    Exact = *N->Const % Size == 0;
    return RangeText::constant(*N->Const <= 0 ? 0 : (*N->Const + Size - 1) / Size);
  }
  if (Size == 1) {
    Exact = true;
    return N;
  }
  // `n * sizeof(T)`, `sizeof(T) * n`: n elements.
  const auto *Mul = dyn_cast<BinaryOperator>(Bytes->IgnoreParenImpCasts());
  if (Mul && Mul->getOpcode() == BO_Mul)
    for (auto [Factor, Other] : {std::pair{Mul->getRHS(), Mul->getLHS()},
                                 std::pair{Mul->getLHS(), Mul->getRHS()}}) {
      Expr::EvalResult R;
      const Expr *F = Factor->IgnoreParenImpCasts();
      if (!isa<UnaryExprOrTypeTraitExpr>(F) || F->isValueDependent() ||
          !F->EvaluateAsInt(R, Ctx()) || R.Val.getInt() != Size)
        continue;
      std::optional<RangeText> Elements = spell(Other);
      // A negative count converted to size_t is no valid size at all.
      if (Elements) {
        Exact = true;
        return Elements;
      }
    }
  // `b.bytes()`: all of b.
  if (const auto *MC =
          dyn_cast<CXXMemberCallExpr>(Bytes->IgnoreParenImpCasts());
      MC && isBufferMethod(MC, "bytes") &&
      Ctx().hasSameUnqualifiedType(
          bufferElementType(MC->getImplicitObjectArgument()->getType()),
          Element))
    if (std::optional<RangeText> S = sizeText(MC->getImplicitObjectArgument())) {
      Exact = true;
      return S;
    }
  RangeText Up;
  Up.Text = "(" + element_ranges::operand(*N, false) + " + " + std::to_string(Size - 1) +
            ") / " + std::to_string(Size);
  Up.Binds = RangeText::Multiplicative;
  return Up;
}

std::optional<ElementRange>
ElementRanges::countedRange(const HostEvent &E) const {
  if (!E.WrittenCountInner || !E.WrittenCount || !E.CountingLoop)
    return std::nullopt;
  std::optional<RangeText> K = spell(E.WrittenCount);
  std::optional<RangeText> J = spell(E.WrittenCountInner);
  if (!K || !J)
    return std::nullopt;
  if (E.WrittenCountInclusive)
    K = plusText(*K, RangeText::constant(1));
  if (E.WrittenCountInnerInclusive)
    J = plusText(*J, RangeText::constant(1));
  if (!K || !J)
    return std::nullopt;
  RangeText Outer = tripCountText(RangeText::constant(0), *K);
  RangeText Inner = tripCountText(RangeText::constant(0), *J);
  RangeText Count;
  if (Outer.Const && Inner.Const) {
    long long P;
    if (__builtin_mul_overflow(*Outer.Const, *Inner.Const, &P))
      return std::nullopt;
    Count = RangeText::constant(P);
  } else {
    Count.Text = Outer.Text + " * " + Inner.Text;
    Count.Binds = RangeText::Multiplicative;
  }
  ElementRange R;
  R.First = "0";
  R.FirstConst = 0;
  R.Count = Count.Text;
  R.CountConst = Count.Const;
  R.Covers = runsWhenever(E.CountingLoop);
  return R;
}

void ElementRanges::loopWalked(const Stmt *Loop, std::vector<HostEvent> &Events,
                               size_t First) const {
  for (size_t K = First; K < Events.size(); ++K) {
    HostEvent &W = Events[K];
    if (!W.Range || !W.Range->Covers || !W.Site)
      continue;
    auto It = CoveringLoop.find(W.Site);
    bool Counted = W.CountingLoop == Loop && W.WrittenCountInner;
    if (!Counted && (It == CoveringLoop.end() || It->second != Loop))
      continue;
    std::set<ObjectId> Same = Table.withAliases(W.Targets.Ids);
    bool Alone = !W.Escapes;
    for (size_t J = First; J < Events.size() && Alone; ++J) {
      if (J == K)
        continue;
      for (ObjectId Id : Events[J].Targets.Ids)
        if (Same.count(Id) || Events[J].Targets.Guessed)
          Alone = false;
    }
    if (!Alone)
      W.Range->Covers = false;
  }
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
