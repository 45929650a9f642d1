// Element ranges (see ElementRanges.h): the ranges of a statement's host
// events: one element, the elements a counting loop walks, a span; whether
// a write covers its range. Their texts come from ElementRangeSpelling.cpp
// and ElementRangePointers.cpp, the argument that those mean, before the
// statement, what the access means inside it from
// ElementRangeInvariance.cpp, the texts' arithmetic from RangeTexts.cpp.

#include "analyses/host/ElementRanges.h"

#include "analyses/host/ElementRangesInternal.h"
#include "analyses/host/HostAccessInternal.h"
#include "analyses/LoopShape.h"
#include "model/FerryTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace ferry {

ElementRanges::ElementRanges(const ObjectTable &Table, const Stmt *Root)
    : Table(Table), Root(Root) {}

ASTContext &ElementRanges::Ctx() const {
  return Table.function()->getASTContext();
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

} // namespace ferry
