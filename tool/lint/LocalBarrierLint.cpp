#include "lint/LocalBarrierLint.h"

#include "analyses/LoopShape.h"
#include "analyses/kernel/AffineIndex.h"
#include "analyses/kernel/WorkGroupUse.h"
#include "analyses/kernel/WorkItemVariance.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"

#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

using namespace clang;

namespace ferry {

namespace {

// --- indices -------------------------------------------------------------------

/// The non-group ids (kc.x/y/z, kc.localX/Y/Z) with a nonzero coefficient,
/// keyed by their AffineId.
std::map<int, long long> itemIds(const AffineIndex &A) {
  std::map<int, long long> P;
  for (int I = GlobalX; I <= LocalZ; ++I)
    if (A.Ids[I] != 0)
      P[I] = A.Ids[I];
  return P;
}

/// The ids of every kind with their coefficients.
std::map<int, long long> allIds(const AffineIndex &A) {
  std::map<int, long long> P;
  for (int I = 0; I < AffineIdCount; ++I)
    if (A.Ids[I] != 0)
      P[I] = A.Ids[I];
  return P;
}

/// Everything but the ids: the same for every work-item of a group.
struct Rest {
  std::map<std::string, long long> Uniform, PerGroup;
  bool operator==(const Rest &O) const {
    return Uniform == O.Uniform && PerGroup == O.PerGroup;
  }
};
Rest restOf(const AffineIndex &A) { return {A.Uniform, A.PerGroup}; }

// --- guards --------------------------------------------------------------------

/// Which work-items of a group make an access.
struct Guard {
  enum Kind { All, OneItem, IdRange, Other } K = All;
};

// --- accesses ------------------------------------------------------------------

struct LocalAccess {
  const ValueDecl *Array = nullptr;
  const Expr *Index = nullptr;
  const Expr *Expression = nullptr; ///< the store, or the element read
  bool Store = false;
  AffineIndex Form;
  Guard Who;
};

using LocalParams = std::set<const ParmVarDecl *>;

/// `tile[i]` on a ferry::Local or LocalSpan variable, or `p[i]` on a
/// pointer parameter every caller hands local memory: the variable and i.
std::pair<const ValueDecl *, const Expr *>
localElement(const Expr *E, const LocalParams &Pointers) {
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts())) {
    const auto *DRE = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (P && Pointers.count(P))
      return {P, AS->getIdx()};
    return {nullptr, nullptr};
  }
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParenImpCasts());
  if (!Op || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
    return {nullptr, nullptr};
  const auto *DRE = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
  if (!DRE || !(isLocalArrayType(DRE->getDecl()->getType()) ||
                isLocalSpanType(DRE->getDecl()->getType())))
    return {nullptr, nullptr};
  return {DRE->getDecl(), Op->getArg(1)};
}

class FunctionCheck {
public:
  FunctionCheck(ASTContext &Ctx, const FunctionDecl *F,
                const std::set<const FunctionDecl *> &Barriers,
                const LocalParams &Pointers, const GroupSize &LocalSize,
                const std::vector<GroupShape> &Shapes)
      : Ctx(Ctx), F(F), Barriers(Barriers), Pointers(Pointers),
        LocalSize(LocalSize), Shapes(Shapes),
        V(F, CallContext(), NoBuffers),
        Parents(const_cast<Stmt *>(F->getBody())) {}

  void run(std::vector<LintFinding> &Findings) {
    if (V.gaveUp())
      return;
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    std::unique_ptr<CFG> Graph = CFG::buildCFG(F, F->getBody(), &Ctx, Options);
    if (!Graph)
      return;
    for (const CFGBlock *B : *Graph) {
      unsigned I = 0;
      for (const CFGElement &E : *B) {
        if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
          Position[S->getStmt()] = {B, I};
          classify(S->getStmt(), B, I);
        }
        ++I;
      }
    }
    std::set<const Expr *> Warned;
    for (const LocalAccess &W : Accesses) {
      if (!W.Store)
        continue;
      for (const LocalAccess &R : Accesses) {
        if (R.Store || R.Array != W.Array || Warned.count(R.Expression) ||
            !conflict(W, R) || !reachesWithoutBarrier(W.Expression,
                                                      R.Expression))
          continue;
        Warned.insert(R.Expression);
        LintFinding Finding;
        Finding.Kind = LintFinding::Check::MissingBarrier;
        Finding.Loc = R.Expression->getBeginLoc();
        std::string Name = W.Array->getNameAsString();
        Finding.Message =
            "data race: a work-item reads `" +
            lintExpressionText(Ctx, R.Expression) + "`, an element of '" +
            Name + "' another work-item of its group writes, with no "
            "kc.barrier() between the write and the read; put kc.barrier() "
            "between them";
        Finding.Notes.push_back(
            {W.Expression->getBeginLoc(),
             "the other work-item's write: `" +
                 lintExpressionText(Ctx, W.Expression) + "`"});
        Findings.push_back(std::move(Finding));
      }
    }
    racingStores(Findings);
  }

  /// Two stores to one element of local memory by two work-items of a
  /// group with no barrier between them (in either order), both made by
  /// every work-item at indices that depend on the ids: `s[kc.localX] = a;
  /// s[kc.localX + 1] = b;`, or one store that maps two items onto one
  /// element (`s[kc.localX + kc.localY]`). A store at one element that
  /// every item makes (`s[0] = v`) is left alone: the common "all write
  /// the same value" idiom, and the buffer check's business for buffers.
  void racingStores(std::vector<LintFinding> &Findings) const {
    std::set<const Expr *> Warned;
    for (size_t I = 0; I < Accesses.size(); ++I) {
      const LocalAccess &A = Accesses[I];
      if (!A.Store || A.Who.K != Guard::All || !A.Form.Affine ||
          !A.Form.dependsOnIds())
        continue;
      for (size_t J = 0; J <= I; ++J) {
        const LocalAccess &B = Accesses[J];
        if (!B.Store || B.Array != A.Array || B.Who.K != Guard::All ||
            !B.Form.Affine || !B.Form.dependsOnIds() ||
            Warned.count(A.Expression) || Warned.count(B.Expression))
          continue;
        if (&A != &B && !reachesWithoutBarrier(A.Expression, B.Expression) &&
            !reachesWithoutBarrier(B.Expression, A.Expression))
          continue;
        if (!itemsMeet(A.Form, B.Form))
          continue;
        Warned.insert(A.Expression);
        Warned.insert(B.Expression);
        // The warning at the later store in the source, the note at the
        // earlier one.
        const LocalAccess *Later = &A, *Earlier = &B;
        if (Ctx.getSourceManager().isBeforeInTranslationUnit(
                A.Expression->getBeginLoc(), B.Expression->getBeginLoc()))
          std::swap(Later, Earlier);
        report(Findings, *Later, *Earlier);
      }
    }
  }

  void report(std::vector<LintFinding> &Findings, const LocalAccess &A,
              const LocalAccess &B) const {
    LintFinding Finding;
    Finding.Kind = LintFinding::Check::RacingWrite;
    Finding.Loc = A.Expression->getBeginLoc();
    std::string Name = A.Array->getNameAsString();
    Finding.Message =
        "data race: two work-items of a group write the same element of '" +
        Name + "' in `" + lintExpressionText(Ctx, A.Expression) + "`" +
        (&A == &B ? std::string(" (its index maps two work-items onto one "
                                "element)")
                  : std::string(" and `") +
                        lintExpressionText(Ctx, B.Expression) + "`") +
        ", with no kc.barrier() between";
    if (&A != &B)
      Finding.Notes.push_back({B.Expression->getBeginLoc(),
                               "the other work-item's write: `" +
                                   lintExpressionText(Ctx, B.Expression) +
                                   "`"});
    Findings.push_back(std::move(Finding));
  }

private:
  struct Pos {
    const CFGBlock *Block = nullptr;
    unsigned Index = 0;
  };

  void classify(const Stmt *S, const CFGBlock *B, unsigned I) {
    if (isBarrier(S))
      BarrierAt.insert({B, I});
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return;
    const Expr *Target = nullptr;
    bool AlsoReads = false;
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp()) {
      Target = BO->getLHS();
      AlsoReads = BO->isCompoundAssignmentOp();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->isIncrementDecrementOp()) {
      Target = UO->getSubExpr();
      AlsoReads = true;
    } else if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
               ICE && ICE->getCastKind() == CK_LValueToRValue) {
      add(ICE->getSubExpr(), E, /*Store=*/false);
      return;
    }
    if (!Target)
      return;
    if (AlsoReads)
      add(Target, E, /*Store=*/false);
    add(Target, E, /*Store=*/true);
  }

  void add(const Expr *Element, const Expr *At, bool Store) {
    auto [Array, Index] = localElement(Element, Pointers);
    if (!Array)
      return;
    LocalAccess A;
    A.Array = Array;
    A.Index = Index;
    A.Expression = At;
    A.Store = Store;
    A.Form = affineIndex(Index, F, V);
    A.Who = guard(At);
    Accesses.push_back(std::move(A));
  }

  bool isBarrier(const Stmt *S) const {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return false;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      return M && M->getIdentifier() && M->getName() == "barrier" &&
             isKernelContextType(M->getParent()->getTypeForDecl()
                                     ->getCanonicalTypeInternal());
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && Callee->getDefinition() &&
           Barriers.count(Callee->getDefinition());
  }

  /// The work-items of a group that run `At`: all, one (`kc.localX == c`),
  /// a range of ids (`kc.localX < step`), or some Ferry cannot tell.
  Guard guard(const Expr *At) const {
    Guard G;
    Variance Seen = Variance::Uniform;
    const Stmt *Child = At;
    for (const Stmt *P = Parents.getParent(At); P;
         Child = P, P = Parents.getParent(P)) {
      const Expr *Cond = nullptr;
      bool Then = true;
      if (const auto *If = dyn_cast<IfStmt>(P)) {
        if (Child != If->getThen() && Child != If->getElse())
          continue;
        Cond = If->getCond();
        Then = Child == If->getThen();
      } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
        if (Child != CO->getCond())
          Cond = CO->getCond(), Then = Child == CO->getTrueExpr();
      } else if (const auto *BO = dyn_cast<BinaryOperator>(P);
                 BO && BO->isLogicalOp() && Child == BO->getRHS()) {
        Cond = BO->getLHS();
        Then = BO->getOpcode() == BO_LAnd;
      } else if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) ||
                 isa<SwitchStmt>(P) || isa<CXXForRangeStmt>(P)) {
        // A loop whose trips differ between work-items: Ferry does not
        // follow which items are in which iteration.
        if (V.control(Child) != V.control(P))
          G.K = Guard::Other;
        continue;
      }
      if (!Cond || V.of(Cond) == Variance::Uniform)
        continue;
      Seen = join(Seen, V.of(Cond));
      G.K = combine(G.K, condition(Cond, Then));
    }
    // Something else divides the work-items here: an earlier exit.
    if (V.control(At) != Seen && V.control(At) != Variance::Uniform)
      G.K = Guard::Other;
    return G;
  }

  static Guard::Kind combine(Guard::Kind A, Guard::Kind B) {
    if (A == Guard::All)
      return B;
    if (A == Guard::IdRange && B == Guard::IdRange)
      return Guard::IdRange;
    return Guard::Other;
  }

  /// One work-item id (local or global) plus what is the same for the
  /// whole group (`kc.localX`, `kc.x + 1`, `kc.groupX * 64 + kc.localX`):
  /// comparing it with a uniform bound picks a range of the group's items.
  bool isIdOffset(const Expr *E) const {
    AffineIndex L = affineIndex(E, F, V);
    if (!L.Affine)
      return false;
    int Ids = 0;
    for (const auto &[Id, C] : itemIds(L)) {
      if (C != 1 && C != -1)
        return false;
      ++Ids;
    }
    return Ids == 1;
  }

  Guard::Kind condition(const Expr *Cond, bool Holds) const {
    Cond = Cond->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    if (!BO)
      return Guard::Other;
    if (BO->getOpcode() == BO_LAnd && Holds)
      return combine(condition(BO->getLHS(), true),
                     condition(BO->getRHS(), true));
    bool IdLeft = isIdOffset(BO->getLHS()) &&
                  V.of(BO->getRHS()) == Variance::Uniform;
    bool IdRight = isIdOffset(BO->getRHS()) &&
                   V.of(BO->getLHS()) == Variance::Uniform;
    if (!IdLeft && !IdRight)
      return Guard::Other;
    if (BO->getOpcode() == BO_EQ && Holds)
      return Guard::OneItem;
    if (BO->isRelationalOp())
      return Guard::IdRange;
    return Guard::Other;
  }

  /// Whether another work-item's write W surely stores the element that
  /// some work-item's read R loads.
  bool conflict(const LocalAccess &W, const LocalAccess &R) const {
    const AffineIndex &A = W.Form, &B = R.Form;
    if (!A.Affine || !B.Affine)
      return false;
    auto IdW = allIds(A), IdR = allIds(B);
    bool SameRest = restOf(A) == restOf(B) && A.Constant == B.Constant;
    bool Ranged = (W.Who.K == Guard::All || W.Who.K == Guard::IdRange) &&
                  (R.Who.K == Guard::All || R.Who.K == Guard::IdRange);
    // `tile[lx]` written, `tile[lx + 1]` or `tile[lx + step]` read: the
    // item `d` further on wrote what this one reads, when there is one.
    if (!IdW.empty() && IdW == IdR && !SameRest && Ranged &&
        neighbourExists(IdW, A, B))
      return true;
    // One element, written by one work-item or by all, read by all.
    if (IdW.empty() && IdR.empty() && SameRest &&
        (W.Who.K == Guard::All || W.Who.K == Guard::OneItem) &&
        R.Who.K == Guard::All)
      return true;
    // `tile[lx]` written by all, `tile[0]` read by all: item 0's element.
    if (IdW.size() == 1 && IdR.empty() && SameRest &&
        W.Who.K == Guard::All && R.Who.K == Guard::All) {
      const auto &[Id, C] = *IdW.begin();
      if (C == 1 && Id >= LocalX && Id <= LocalZ)
        return true;
    }
    // Any other pair of affine indices, both accesses made by every
    // work-item (`s[kc.localX]` written, `s[63 - kc.localX]` read): two
    // different work-items of a group meet at one element.
    return W.Who.K == Guard::All && R.Who.K == Guard::All &&
           itemsMeet(A, B);
  }

  /// Whether two different work-items of a group, one indexing with A and
  /// one with B, surely meet at an element: at some dispatch's group size
  /// (every dimension a constant), or, where no dispatch gives one, at the
  /// smallest group that can split along the ids the indices use (two
  /// items along each: the lint runs only where groups hold more than
  /// one), which is a race at every larger size too, unless the indices
  /// name the group size (then Ferry does not know it and says nothing).
  bool itemsMeet(const AffineIndex &A, const AffineIndex &B) const {
    for (const GroupShape &Shape : Shapes)
      if (distinctItemsMeet(A, B, Shape))
        return true;
    if (!Shapes.empty())
      return false;
    AffineIndex GA = A.withinGroup(), GB = B.withinGroup();
    GroupShape Least{1, 1, 1};
    for (int D = 0; D < 3; ++D) {
      if (GA.Ids[LocalX + D] == 0 && GB.Ids[LocalX + D] == 0)
        continue;
      Least[D] = LocalSize[D].value_or(2);
    }
    for (const char *Size : {"kc.localSizeX", "kc.localSizeY",
                             "kc.localSizeZ"})
      if (GA.Uniform.count(Size) || GB.Uniform.count(Size))
        return false;
    return distinctItemsMeet(GA, GB, Least);
  }

  /// Whether the work-item `d = read - write` ids away from a reader is in
  /// its group: for a constant d, when |d| is below the group size (1 when
  /// Ferry does not know the size); for a variable d (`step`), unless it is
  /// built from the group size itself (`tile[lx + kc.localSizeX]` is the
  /// same item's second element).
  bool neighbourExists(const std::map<int, long long> &Ids,
                       const AffineIndex &Write,
                       const AffineIndex &Read) const {
    int Dim = -1;
    for (const auto &[Id, C] : Ids)
      if (Dim < 0 && (C == 1 || C == -1) && Id <= LocalZ)
        Dim = Id % 3;
    if (Dim < 0)
      return false;
    Rest RestW = restOf(Write), RestR = restOf(Read);
    if (RestW == RestR) {
      long long D = std::llabs(Read.Constant - Write.Constant);
      return D > 0 && D < LocalSize[Dim].value_or(2);
    }
    for (const auto *Side : {&RestW, &RestR})
      for (const auto *Map : {&Side->Uniform, &Side->PerGroup})
        for (const auto &[Key, C] : *Map) {
          auto Same = [&, &Key = Key](const std::map<std::string, long long>
                                          &W,
                                      const std::map<std::string, long long>
                                          &R) {
            return W.count(Key) && R.count(Key) && W.at(Key) == R.at(Key);
          };
          if (Key.rfind("v:", 0) != 0 &&
              !Same(RestW.Uniform, RestR.Uniform) &&
              !Same(RestW.PerGroup, RestR.PerGroup))
            return false;
        }
    return true;
  }

  /// A path from just after the write to the read that meets no barrier.
  bool reachesWithoutBarrier(const Expr *Write, const Expr *Read) const {
    auto WI = Position.find(Write), RI = Position.find(Read);
    if (WI == Position.end() || RI == Position.end())
      return false;
    Pos To = RI->second;
    std::set<const CFGBlock *> Entered;
    std::vector<std::pair<const CFGBlock *, unsigned>> Work{
        {WI->second.Block, WI->second.Index + 1}};
    while (!Work.empty()) {
      auto [B, From] = Work.back();
      Work.pop_back();
      bool Blocked = false;
      for (unsigned I = From; I < B->size(); ++I) {
        if (B == To.Block && I == To.Index)
          return true;
        if (BarrierAt.count({B, I})) {
          Blocked = true;
          break;
        }
      }
      if (Blocked)
        continue;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs())
        if (const CFGBlock *S = Succ.getReachableBlock();
            S && Entered.insert(S).second)
          Work.push_back({S, 0});
    }
    return false;
  }

  ASTContext &Ctx;
  const FunctionDecl *F;
  const std::set<const FunctionDecl *> &Barriers;
  const LocalParams &Pointers;
  const GroupSize &LocalSize;
  const std::vector<GroupShape> &Shapes;
  std::set<const ParmVarDecl *> NoBuffers;
  WorkItemVariance V;
  ParentMap Parents;
  std::map<const Stmt *, Pos> Position;
  std::set<std::pair<const CFGBlock *, unsigned>> BarrierAt;
  std::vector<LocalAccess> Accesses;
};

/// Functions of the graph that reach kc.barrier(), directly or through
/// the helpers they call.
std::set<const FunctionDecl *> barrierFunctions(const ReachableGraph &G) {
  struct Find : RecursiveASTVisitor<Find> {
    bool Found = false;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      Found = Found || (M && M->getIdentifier() && M->getName() == "barrier" &&
                        isKernelContextType(MC->getObjectType()));
      return true;
    }
  };
  std::set<const FunctionDecl *> Out;
  for (const FunctionDecl *F : G.Functions) {
    Find Finder;
    if (F->hasBody())
      Finder.TraverseStmt(F->getBody());
    if (Finder.Found)
      Out.insert(F);
  }
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const CallEdge &E : G.Calls)
      if (Out.count(E.Callee) && !Out.count(E.Caller))
        Grew = Out.insert(E.Caller).second || Grew;
  }
  return Out;
}

/// Declares a ferry::Local, or takes a LocalSpan.
bool hasLocalMemory(const FunctionDecl *F) {
  struct Find : RecursiveASTVisitor<Find> {
    bool Found = false;
    bool VisitVarDecl(VarDecl *V) {
      Found = Found || isLocalArrayType(V->getType()) ||
              isLocalSpanType(V->getType());
      return true;
    }
  } Finder;
  for (const ParmVarDecl *P : F->parameters())
    if (isLocalSpanType(P->getType()))
      return true;
  if (F->hasBody())
    Finder.TraverseStmt(F->getBody());
  return Finder.Found;
}

/// A pointer into local memory: `&tile[i]`, `tile.data()`, or a parameter
/// that is one (plus an offset).
bool isLocalPointer(const Expr *E, const LocalParams &Known) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    return localElement(UO->getSubExpr(), Known).first != nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    QualType T = MC->getImplicitObjectArgument()->getType();
    return M && M->getIdentifier() && M->getName() == "data" &&
           (isLocalArrayType(T) || isLocalSpanType(T));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp())
    return isLocalPointer(BO->getLHS()->getType()->isPointerType()
                              ? BO->getLHS()
                              : BO->getRHS(),
                          Known);
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && Known.count(P);
}

/// Pointer parameters of helpers that every call in the graph hands local
/// memory (Parboil's histogram passes its local arrays to helpers).
LocalParams localPointerParams(const ReachableGraph &G) {
  LocalParams Local, NotLocal;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const CallEdge &E : G.Calls)
      for (unsigned I = 0;
           I < E.Site->getNumArgs() && I < E.Callee->getNumParams(); ++I) {
        const ParmVarDecl *P = E.Callee->getParamDecl(I);
        if (!P->getType()->isPointerType() || NotLocal.count(P))
          continue;
        if (!isLocalPointer(E.Site->getArg(I), Local)) {
          // One caller hands it something else: not followed.
          Grew = NotLocal.insert(P).second || Grew;
          Grew = Local.erase(P) || Grew;
        } else {
          Grew = Local.insert(P).second || Grew;
        }
      }
  }
  return Local;
}

} // namespace

std::vector<LintFinding> findMissingBarriers(ASTContext &Ctx,
                                             const ReachableGraph &Kernel,
                                             const GroupSize &LocalSize,
                                             const std::vector<GroupShape> &Shapes) {
  std::vector<LintFinding> Findings;
  std::set<const FunctionDecl *> Barriers = barrierFunctions(Kernel);
  LocalParams Pointers = localPointerParams(Kernel);
  for (const FunctionDecl *F : Kernel.Functions) {
    bool TakesLocal = false;
    for (const ParmVarDecl *P : F->parameters())
      TakesLocal = TakesLocal || Pointers.count(P);
    if (F->hasBody() && !F->isDependentContext() &&
        (TakesLocal || hasLocalMemory(F)))
      FunctionCheck(Ctx, F, Barriers, Pointers, LocalSize, Shapes)
          .run(Findings);
  }
  return Findings;
}

} // namespace ferry
