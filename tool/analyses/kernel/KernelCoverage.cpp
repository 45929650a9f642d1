// Coverage forms (see KernelCoverage.h): the linear index of the work-item
// ids, the guards that bound it, grid stores and plane walks. Each is a
// pattern of the kernel's top level that proves a store reaches every
// element of what the dispatch's range addresses.

#include "analyses/kernel/KernelCoverage.h"

#include "analyses/LoopShape.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <vector>

using namespace clang;

namespace ferry {

namespace {


/// Which work-item dimensions an index expression enumerates exactly once:
/// `kc.x` (1), `kc.y * kc.maxX + kc.x` (2), `(kc.z * kc.maxY + kc.y) * kc.maxX
/// + kc.x` (3); 0 for anything else.
class LinearIndex {
public:
  explicit LinearIndex(const FunctionDecl *Kernel) : Kernel(Kernel) {}

  int dims(const Expr *E) const {
    E = stripLocal(E);
    if (isField(E, "x"))
      return 1;
    const auto *Add = dyn_cast<BinaryOperator>(E);
    if (!Add || Add->getOpcode() != BO_Add)
      return 0;
    for (int Swap = 0; Swap < 2; ++Swap) {
      const Expr *X = stripLocal(Swap ? Add->getLHS() : Add->getRHS());
      const Expr *Rest = stripLocal(Swap ? Add->getRHS() : Add->getLHS());
      if (!isField(X, "x"))
        continue;
      const auto *Mul = dyn_cast<BinaryOperator>(Rest);
      if (!Mul || Mul->getOpcode() != BO_Mul)
        continue;
      for (int S2 = 0; S2 < 2; ++S2) {
        const Expr *Width = stripLocal(S2 ? Mul->getLHS() : Mul->getRHS());
        const Expr *Row = stripLocal(S2 ? Mul->getRHS() : Mul->getLHS());
        if (!isField(Width, "maxX"))
          continue;
        if (isField(Row, "y"))
          return 2;
        if (rowIsPlane(Row))
          return 3;
      }
    }
    return 0;
  }

  /// The range dimension a work-item id names (`kc.y`, or `int i = kc.y;`
  /// never assigned again): 0, 1 or 2; -1 for anything else.
  int contextDim(const Expr *E) const {
    E = stripLocal(E);
    if (isField(E, "x"))
      return 0;
    if (isField(E, "y"))
      return 1;
    if (isField(E, "z"))
      return 2;
    return -1;
  }

  /// The position of the integer scalar parameter E names (directly or
  /// through unmodified locals), when the kernel never assigns it; else -1.
  int scalarParam(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(stripLocal(E));
    if (!DRE || !DRE->getType()->isIntegerType())
      return -1;
    for (unsigned I = 0; I < Kernel->getNumParams(); ++I)
      if (Kernel->getParamDecl(I) == DRE->getDecl())
        return isModified(Kernel->getParamDecl(I)) ? -1 : static_cast<int>(I);
    return -1;
  }

  /// `row * width + col`, in either order and either factor order: the
  /// width is a scalar parameter, the column and the row two different
  /// work-item ids, or one of them a local (a loop's counter, which the
  /// caller checks): the row (Rodinia cfd, `v[i + j * n]`) or the column (a
  /// row per work-item, `out[kc.x * n + j]`).
  struct Grid {
    int ColDim = 0; ///< -1: the column is ColVar
    const VarDecl *ColVar = nullptr;
    int WidthParam = -1;
    /// A constant width (`#define W 8`) instead of a parameter.
    std::optional<long long> WidthConst;
    int RowDim = -1; ///< -1: the row is RowVar
    const VarDecl *RowVar = nullptr;
  };
  std::optional<Grid> grid(const Expr *E) const {
    const auto *Add = dyn_cast<BinaryOperator>(stripLocal(E));
    if (!Add || Add->getOpcode() != BO_Add)
      return std::nullopt;
    for (int Swap = 0; Swap < 2; ++Swap) {
      const Expr *Col = Swap ? Add->getLHS() : Add->getRHS();
      int ColDim = contextDim(Col);
      const VarDecl *ColVar = ColDim < 0 ? localVar(Col) : nullptr;
      const auto *Mul = dyn_cast<BinaryOperator>(
          stripLocal(Swap ? Add->getRHS() : Add->getLHS()));
      if ((ColDim < 0 && !ColVar) || !Mul || Mul->getOpcode() != BO_Mul)
        continue;
      for (int S2 = 0; S2 < 2; ++S2) {
        Grid G;
        G.ColDim = ColDim;
        G.ColVar = ColVar;
        const Expr *Width = S2 ? Mul->getLHS() : Mul->getRHS();
        G.WidthParam = scalarParam(Width);
        if (G.WidthParam < 0)
          G.WidthConst = constant(Width);
        const Expr *Row = S2 ? Mul->getRHS() : Mul->getLHS();
        if (G.WidthParam < 0 && (!G.WidthConst || *G.WidthConst <= 0))
          continue;
        G.RowDim = contextDim(Row);
        if (G.RowDim >= 0 && G.RowDim != ColDim)
          return G;
        if (G.RowDim >= 0 || ColVar)
          continue;
        if (const VarDecl *V = localVar(Row)) {
          G.RowVar = V;
          return G;
        }
      }
    }
    return std::nullopt;
  }

  /// An index as a sum of terms, each a coefficient times a product of
  /// symbols: a work-item id ("x", "y", "z"), a global size ("maxX",
  /// "maxY", "maxZ") or an unmodified integer scalar parameter ("#3").
  struct Term {
    long long Coef = 1;
    std::vector<std::string> Symbols; ///< sorted
  };
  /// False when E is no such sum (a division, a call, a local assigned
  /// again, more than three symbols in a product).
  bool affine(const Expr *E, std::vector<Term> &Out) const {
    E = stripLocal(E);
    for (const char *Id : {"x", "y", "z"})
      if (isField(E, Id)) {
        Out.push_back(Term{1, {Id}});
        return true;
      }
    if (const auto *ME = dyn_cast<MemberExpr>(E);
        ME && isKernelContextType(ME->getBase()->getType())) {
      llvm::StringRef Name = contextFieldMeaning(ME->getMemberDecl()->getName());
      if (Name != "maxX" && Name != "maxY" && Name != "maxZ")
        return false;
      Out.push_back(Term{1, {Name.str()}});
      return true;
    }
    if (std::optional<long long> C = constant(E)) {
      Out.push_back(Term{*C, {}});
      return true;
    }
    if (int P = scalarParam(E); P >= 0) {
      Out.push_back(Term{1, {"#" + std::to_string(P)}});
      return true;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return false;
    std::vector<Term> L, R;
    if (!affine(BO->getLHS(), L) || !affine(BO->getRHS(), R))
      return false;
    switch (BO->getOpcode()) {
    case BO_Add:
      break;
    case BO_Sub:
      for (Term &T : R)
        T.Coef = -T.Coef;
      break;
    case BO_Mul: {
      for (const Term &A : L)
        for (const Term &B : R) {
          Term T{A.Coef * B.Coef, A.Symbols};
          T.Symbols.insert(T.Symbols.end(), B.Symbols.begin(), B.Symbols.end());
          if (T.Symbols.size() > 3)
            return false;
          std::sort(T.Symbols.begin(), T.Symbols.end());
          Out.push_back(std::move(T));
        }
      return true;
    }
    default:
      return false;
    }
    Out.insert(Out.end(), L.begin(), L.end());
    Out.insert(Out.end(), R.begin(), R.end());
    return true;
  }

  /// `linear index + offset` (in any order and grouping): the linear index's
  /// dimensions, and the offset's terms (none of them a work-item id);
  /// 0 when E is not of that form or its offset is empty.
  int linearWithOffset(const Expr *E, std::vector<OffsetTerm> &Offset) const {
    std::vector<Term> Terms;
    if (!affine(E, Terms))
      return 0;
    std::map<std::vector<std::string>, long long> Sum;
    for (const Term &T : Terms)
      Sum[T.Symbols] += T.Coef;
    auto Take = [&](std::vector<std::string> Symbols) {
      auto It = Sum.find(Symbols);
      if (It == Sum.end() || It->second != 1)
        return false;
      Sum.erase(It);
      return true;
    };
    if (!Take({"x"}))
      return 0;
    int Dims = 1;
    if (Take({"maxX", "y"}))
      Dims = Take({"maxX", "maxY", "z"}) ? 3 : 2;
    Offset.clear();
    for (const auto &[Symbols, Coef] : Sum) {
      if (Coef == 0)
        continue;
      OffsetTerm T;
      T.Coef = Coef;
      for (const std::string &S : Symbols) {
        if (S == "x" || S == "y" || S == "z")
          return 0; // not the linear index, nor an offset
        if (S[0] == '#')
          T.Params.push_back(std::stoi(S.substr(1)));
        else
          T.RangeDims.push_back(S == "maxX" ? 0 : S == "maxY" ? 1 : 2);
      }
      Offset.push_back(std::move(T));
    }
    return Offset.empty() ? 0 : Dims;
  }

  /// E's value when it is an integer constant expression (a literal, a
  /// macro, a constexpr), through unmodified locals.
  std::optional<long long> constant(const Expr *E) const {
    E = stripLocal(E);
    Expr::EvalResult R;
    if (E->isValueDependent() ||
        !E->EvaluateAsInt(R, Kernel->getASTContext()))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }

  /// The local variable E names (through unmodified locals), or null.
  const VarDecl *localVar(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(stripLocal(E));
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return V && V->isLocalVarDecl() ? V : nullptr;
  }

  /// E with unmodified locals replaced by their initialisers.
  const Expr *resolve(const Expr *E) const { return stripLocal(E); }

  /// `p` of `float *p = out + i;` (p never assigned again): `out + i`.
  const Expr *pointerInit(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->isLocalVarDecl() || !V->getInit() ||
        !V->getType()->isPointerType() || isModified(V))
      return nullptr;
    return V->getInit()->IgnoreParenImpCasts();
  }

private:
  bool rowIsPlane(const Expr *Row) const {
    const auto *Add = dyn_cast<BinaryOperator>(Row);
    if (!Add || Add->getOpcode() != BO_Add)
      return false;
    for (int Swap = 0; Swap < 2; ++Swap) {
      const Expr *Y = stripLocal(Swap ? Add->getLHS() : Add->getRHS());
      const auto *Mul = dyn_cast<BinaryOperator>(
          stripLocal(Swap ? Add->getRHS() : Add->getLHS()));
      if (!isField(Y, "y") || !Mul || Mul->getOpcode() != BO_Mul)
        continue;
      const Expr *L = stripLocal(Mul->getLHS()), *R = stripLocal(Mul->getRHS());
      if ((isField(L, "z") && isField(R, "maxY")) ||
          (isField(R, "z") && isField(L, "maxY")))
        return true;
    }
    return false;
  }

  bool isField(const Expr *E, llvm::StringRef Name) const {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    if (ME)
      return contextFieldMeaning(ME->getMemberDecl()->getName()) == Name &&
             isKernelContextType(ME->getBase()->getType());
    return (Name == "x" || Name == "y" || Name == "z") &&
           isBlockDecomposition(E, Name);
  }

  /// `(id / B) * B + id % B`, in any operand order and through unmodified
  /// locals (`bx = kc.x / NT; tx = kc.x % NT; ei = bx * NT + tx`, how Rodinia
  /// kernels written with group and local ids read over a plain range): the
  /// id itself, for a positive constant B.
  bool isBlockDecomposition(const Expr *E, llvm::StringRef Name) const {
    const auto *Add = dyn_cast<BinaryOperator>(stripLocal(E));
    if (!Add || Add->getOpcode() != BO_Add)
      return false;
    for (int Swap = 0; Swap < 2; ++Swap) {
      const auto *Mul = dyn_cast<BinaryOperator>(
          stripLocal(Swap ? Add->getRHS() : Add->getLHS()));
      const auto *Rem = dyn_cast<BinaryOperator>(
          stripLocal(Swap ? Add->getLHS() : Add->getRHS()));
      if (!Mul || Mul->getOpcode() != BO_Mul || !Rem ||
          Rem->getOpcode() != BO_Rem)
        continue;
      std::optional<long long> B = constant(Rem->getRHS());
      if (!B || *B <= 0 || !isPlainField(Rem->getLHS(), Name))
        continue;
      for (int S2 = 0; S2 < 2; ++S2) {
        const auto *Div = dyn_cast<BinaryOperator>(
            stripLocal(S2 ? Mul->getRHS() : Mul->getLHS()));
        if (Div && Div->getOpcode() == BO_Div &&
            isPlainField(Div->getLHS(), Name) &&
            constant(Div->getRHS()) == B &&
            constant(S2 ? Mul->getLHS() : Mul->getRHS()) == B)
          return true;
      }
    }
    return false;
  }

  bool isPlainField(const Expr *E, llvm::StringRef Name) const {
    const auto *ME = dyn_cast<MemberExpr>(stripLocal(E));
    return ME && ME->getMemberDecl()->getName() == Name &&
           isKernelContextType(ME->getBase()->getType());
  }

  /// Looks through `int i = kc.x;` when `i` is never assigned again.
  const Expr *stripLocal(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
      E = C->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CStyleCastExpr>(E))
      E = C->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXStaticCastExpr>(E))
      E = C->getSubExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return E;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->isLocalVarDecl() || !V->getInit() || isModified(V))
      return E;
    return stripLocal(V->getInit());
  }

  bool isModified(const VarDecl *V) const {
    return !V->getType().isConstQualified() && changes(Kernel->getBody(), V);
  }

  const FunctionDecl *Kernel;
};

/// `for (int k = A; k < B; ++k)` (or `k++`, `k += 1`) whose body never
/// changes `k`; B is a constant, or an unassigned integer parameter plus or
/// minus a constant.
struct CountedLoop {
  const VarDecl *Var = nullptr;
  long long Start = 0;
  /// A constant bound: how many times it runs, max(0, B - A).
  std::optional<long long> Trips;
  /// Otherwise B = BoundParam + BoundOffset.
  int BoundParam = -1;
  long long BoundOffset = 0;
};

std::optional<CountedLoop> countedLoop(const ForStmt *For,
                                       const LinearIndex &Index) {
  std::optional<CountingLoop> Shape = countingLoop(For);
  if (!Shape)
    return std::nullopt;
  ASTContext &Ctx = Shape->Var->getASTContext();
  Expr::EvalResult Value;
  CountedLoop L;
  L.Var = Shape->Var;
  L.Start = Shape->Start;
  const Expr *Bound = Shape->Bound;
  if (!Bound->isValueDependent() && Bound->EvaluateAsInt(Value, Ctx)) {
    L.Trips = std::max<long long>(0, Value.Val.getInt().getExtValue() - L.Start);
    return L;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(Bound);
      B && (B->getOpcode() == BO_Sub || B->getOpcode() == BO_Add) &&
      B->getRHS()->EvaluateAsInt(Value, Ctx)) {
    L.BoundOffset = Value.Val.getInt().getExtValue();
    if (B->getOpcode() == BO_Sub)
      L.BoundOffset = -L.BoundOffset;
    Bound = B->getLHS();
  }
  L.BoundParam = Index.scalarParam(Bound);
  if (L.BoundParam < 0)
    return std::nullopt;
  return L;
}

/// Follows the kernel's straight-line top level, entering `if (in range)`
/// blocks, passing `if (out of range) return;`, and requiring both arms of
/// other if/else statements, looking for a plain store `p[linear index] = …`
/// that every remaining work-item executes.
class CoverageFinder {
public:
  CoverageFinder(const FunctionDecl *Kernel, unsigned ParamIndex)
      : Kernel(Kernel), Param(Kernel->getParamDecl(ParamIndex)),
        Index(Kernel) {}

  Coverage find() {
    Coverage C;
    if (scan(Kernel->getBody(), C) != Step::Covered)
      return {};
    return C;
  }

private:
  enum class Step { Covered, Continue, Stop };

  Step scan(const Stmt *S, Coverage &C) {
    const Stmt *SavedScope = Scope;
    Scope = S;
    Step R = scanScope(S, C);
    Scope = SavedScope;
    return R;
  }

  Step scanScope(const Stmt *S, Coverage &C) {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body()) {
        Step R = scanOne(Child, C);
        if (R != Step::Continue)
          return R;
      }
      return Step::Continue;
    }
    return S ? scanOne(S, C) : Step::Continue;
  }

  Step scanOne(const Stmt *S, Coverage &C) {
    if (isa<CompoundStmt>(S))
      return scan(S, C);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable() || If->isConsteval())
        return mayExitEarly(S) ? Step::Stop : Step::Continue;
      // `if (kc.x >= n) return;`: the rest runs for every in-range item.
      if (!If->getElse() && isa<ReturnStmt>(stripBlock(If->getThen()))) {
        Coverage G = C;
        if (guardBound(If->getCond(), /*InRange=*/false, G)) {
          C = G;
          return Step::Continue;
        }
        return Step::Stop;
      }
      // `if (kc.x < n) { … }`: what the block covers; the else arm only
      // runs for items out of range.
      Coverage G = C;
      if (guardBound(If->getCond(), /*InRange=*/true, G)) {
        if (scan(If->getThen(), G) == Step::Covered) {
          C = G;
          return Step::Covered;
        }
        return mayExitEarly(S) ? Step::Stop : Step::Continue;
      }
      // Any other branch covers when both arms do.
      if (If->getElse()) {
        Coverage T = C, E = C;
        Step RT = scan(If->getThen(), T);
        Step RE = scan(If->getElse(), E);
        if (RT == Step::Covered && RE == Step::Covered && T.Dims == E.Dims &&
            T.BoundParam == E.BoundParam && T.Offset == E.Offset) {
          C = T;
          return Step::Covered;
        }
      }
      return mayExitEarly(S) ? Step::Stop : Step::Continue;
    }
    // `for (int j = 0; j < rows; ++j) v[i + j * n] = …;`: every work-item
    // runs every row, so a grid store in the body covers rows * n.
    if (const auto *For = dyn_cast<ForStmt>(S); For && !Loop.Var) {
      // The grid's rows (or columns) are the loop's [0, bound) itself.
      std::optional<CountedLoop> L = countedLoop(For, Index);
      if (L && L->Start == 0 && L->BoundOffset == 0) {
        Loop = *L;
        Coverage G = C;
        Step R = scan(For->getBody(), G);
        Loop = CountedLoop();
        if (R == Step::Covered && G.Grid.Valid &&
            (G.Grid.RowDim < 0 || G.Grid.ColDim < 0)) {
          C = G;
          return Step::Covered;
        }
      }
      return mayExitEarly(S) ? Step::Stop : Step::Continue;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (coveringStore(E, C))
        return Step::Covered;
      return Step::Continue;
    }
    return mayExitEarly(S) ? Step::Stop : Step::Continue;
  }

  /// A grid store (see GridCoverage), its bounds from the guards around it
  /// and, for a row that is a loop's counter, the loop's.
  bool gridStore(const Expr *E, const Expr *IndexExpr, Coverage &C) {
    std::optional<LinearIndex::Grid> G = Index.grid(IndexExpr);
    if (!G || (C.BoundParam >= 0 && C.BoundDims != 1))
      return false;
    GridCoverage Grid;
    Grid.Valid = true;
    Grid.ColDim = G->ColDim;
    Grid.WidthParam = G->WidthParam;
    Grid.WidthConst = G->WidthConst;
    int Dims = 0;
    if (G->ColVar) {
      // A row per work-item of a 1-D range: the loop enumerates columns.
      if (G->ColVar != Loop.Var || G->RowDim != 0 || C.DimBound[1] >= 0 ||
          C.DimBound[2] >= 0)
        return false;
      Grid.ColBoundParam = Loop.BoundParam;
      Grid.ColCount = Loop.Trips;
      Grid.RowDim = 0;
      Grid.RowBoundParam = C.DimBound[0];
      Dims = 1;
    } else if (G->RowVar) {
      Grid.ColBoundParam = C.DimBound[G->ColDim];
      // The range is 1-D: the loop enumerates the rows.
      if (G->RowVar != Loop.Var || G->ColDim != 0 || C.DimBound[1] >= 0 ||
          C.DimBound[2] >= 0)
        return false;
      Grid.RowBoundParam = Loop.BoundParam;
      Grid.RowCount = Loop.Trips;
      Dims = 1;
    } else {
      if (Loop.Var || G->ColDim + G->RowDim != 1 || C.DimBound[2] >= 0)
        return false;
      Grid.ColBoundParam = C.DimBound[G->ColDim];
      Grid.RowDim = G->RowDim;
      Grid.RowBoundParam = C.DimBound[G->RowDim];
      Dims = 2;
    }
    C.Covers = true;
    C.Dims = Dims;
    C.Grid = Grid;
    C.Store = E;
    C.Scope = Scope;
    return true;
  }

  /// `p[index] = v` (or `+=`, `++`…), with the built-in operator or a
  /// trivial operator= of the element struct: the whole element is stored.
  bool coveringStore(const Expr *E, Coverage &C) {
    E = E->IgnoreImplicit()->IgnoreParens();
    const Expr *Target = nullptr;
    // Compound assignments and ++/-- store every element too (after reading
    // it, which the inferred access says).
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
             Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
      if (M && (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()) &&
          M->isTrivial())
        Target = Op->getArg(0);
    }
    if (!Target)
      return false;
    const Expr *BaseExpr = nullptr, *IndexExpr = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Target->IgnoreParens())) {
      BaseExpr = AS->getBase();
      IndexExpr = AS->getIdx();
    } else if (const auto *Deref =
                   dyn_cast<UnaryOperator>(Target->IgnoreParens());
               Deref && Deref->getOpcode() == UO_Deref) {
      // `float *p = out + i; *p = v;` (Rodinia nn) stores out[i].
      const auto *Add = dyn_cast_or_null<BinaryOperator>(
          Index.pointerInit(Deref->getSubExpr()));
      if (!Add || Add->getOpcode() != BO_Add)
        return false;
      bool LeftPointer = Add->getLHS()->getType()->isPointerType();
      BaseExpr = LeftPointer ? Add->getLHS() : Add->getRHS();
      IndexExpr = LeftPointer ? Add->getRHS() : Add->getLHS();
    }
    if (!BaseExpr)
      return false;
    const auto *Base = dyn_cast<DeclRefExpr>(BaseExpr->IgnoreParenImpCasts());
    if (!Base || Base->getDecl() != Param)
      return false;
    // Inside a loop only a grid over its counter covers: a plain store
    // there runs as often as the loop does, possibly never.
    int Dims = Loop.Var ? 0 : Index.dims(IndexExpr);
    std::vector<OffsetTerm> Offset;
    if (Dims == 0 && !Loop.Var)
      Dims = Index.linearWithOffset(IndexExpr, Offset);
    if (Dims == 0)
      return gridStore(E, IndexExpr, C);
    // A `< n` guard on another index does not bound this one.
    if ((C.BoundParam >= 0 && C.BoundDims != Dims) || C.DimBound[1] >= 0 ||
        C.DimBound[2] >= 0)
      return false;
    C.Covers = true;
    C.Dims = Dims;
    C.Offset = std::move(Offset);
    C.Store = E;
    C.Scope = Scope;
    return true;
  }

  static const Stmt *stripBlock(const Stmt *S) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S); CS && CS->size() == 1)
      return CS->body_front();
    return S;
  }

  /// The KernelContext field `E` names (`x`, `maxX`, …), or "".
  static llvm::StringRef contextField(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    if (!ME || !isKernelContextType(ME->getBase()->getType()))
      return "";
    return contextFieldMeaning(ME->getMemberDecl()->getName());
  }

  /// `kc.x < n` (in range) or `kc.x >= n` (out of range), joined with && or
  /// || respectively. `n` is a scalar parameter (recorded as the bound), or
  /// the matching global size (`kc.y < kc.maxY`), which excludes nothing.
  bool guardBound(const Expr *Cond, bool InRange, Coverage &C) {
    Cond = Cond->IgnoreParenImpCasts();
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    if (!BO)
      return false;
    if (BO->getOpcode() == (InRange ? BO_LAnd : BO_LOr))
      return guardBound(BO->getLHS(), InRange, C) &&
             guardBound(BO->getRHS(), InRange, C);
    BinaryOperatorKind Less = InRange ? BO_LT : BO_GE;
    BinaryOperatorKind Greater = InRange ? BO_GT : BO_LE;
    const Expr *Id = nullptr, *Limit = nullptr;
    if (BO->getOpcode() == Less) {
      Id = BO->getLHS();
      Limit = BO->getRHS();
    } else if (BO->getOpcode() == Greater) {
      Id = BO->getRHS();
      Limit = BO->getLHS();
    } else {
      return false;
    }
    llvm::StringRef IdField = contextField(Id);
    llvm::StringRef LimitField = contextField(Limit);
    if (!LimitField.empty())
      return (IdField == "x" && LimitField == "maxX") ||
             (IdField == "y" && LimitField == "maxY") ||
             (IdField == "z" && LimitField == "maxZ");
    // `id < (unsigned)n`: an unsigned id's guard, cast to build warning-free.
    Limit = Limit->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Limit);
        Cast && Cast->getType()->isIntegerType())
      Limit = Cast->getSubExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Limit);
    if (!DRE)
      return false;
    // A bound on one work-item id (`kc.y < m`, `i < n` with `int i =
    // kc.x`): what grid stores use. Only x also bounds a linear index.
    if (int D = Index.contextDim(Id); D >= 0) {
      int P = Index.scalarParam(Limit);
      if (P < 0 || (C.DimBound[D] != -1 && C.DimBound[D] != P))
        return false;
      C.DimBound[D] = P;
      if (D != 0)
        return true;
    }
    int Dims = Index.dims(Id);
    if (Dims == 0)
      return false;
    for (unsigned I = 0; I < Kernel->getNumParams(); ++I)
      if (Kernel->getParamDecl(I) == DRE->getDecl() &&
          DRE->getType()->isIntegerType()) {
        if (C.BoundParam != -1 &&
            (C.BoundParam != static_cast<int>(I) || C.BoundDims != Dims))
          return false;
        C.BoundParam = static_cast<int>(I);
        C.BoundDims = Dims;
        return true;
      }
    return false;
  }

  const FunctionDecl *Kernel;
  const ParmVarDecl *Param;
  LinearIndex Index;
  const Stmt *Scope = nullptr;
  /// The counted loop whose body is being scanned (at most one).
  CountedLoop Loop;
};

/// Rodinia hotspot3D's march through a volume: `int c = i + j * nx;` (a 2-D
/// grid over the range), then, in the kernel's top-level statements, stores
/// at `out[c]` and steps `c += xy` (`xy` = `nx * ny`), once before a counted
/// loop, once per iteration inside it, once after. The planes stored must
/// run from 0 without a gap; how many there are depends on the loop's bound,
/// so the runtime works it out (`ferry::volume`).
class PlaneWalkFinder {
public:
  PlaneWalkFinder(const FunctionDecl *Kernel, unsigned ParamIndex)
      : Kernel(Kernel), Param(Kernel->getParamDecl(ParamIndex)),
        Index(Kernel) {}

  Coverage find() {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
    if (!Body || !findCursor(Body))
      return {};
    for (const Stmt *S : Body->body())
      if (!step(S) && !(S == Body->body_back() && isa<ReturnStmt>(S)))
        return {};
    // The planes, in order, each starting where the last ended.
    Offset End;
    for (const auto &[Lo, Hi] : Stored) {
      if (!(Lo == End))
        return {};
      End = Hi;
    }
    if (Stored.empty() || PlaneRows < 0)
      return {};
    Coverage C;
    C.Covers = true;
    C.Dims = 2;
    C.Store = FirstStore;
    C.Scope = Body;
    GridCoverage &G = C.Grid;
    G.Valid = true;
    G.ColDim = Grid.ColDim;
    G.WidthParam = Grid.WidthParam;
    G.RowDim = Grid.RowDim;
    G.PlaneRowsParam = PlaneRows;
    G.PlanesConst = End.Const;
    G.PlanesPerTrip = End.PerTrip;
    if (End.PerTrip) {
      G.TripBoundParam = Loop.BoundParam;
      G.TripOffset = Loop.BoundOffset;
      G.TripStart = Loop.Start;
    }
    return C;
  }

private:
  /// A plane number: Const + PerTrip * (the loop's trip count).
  struct Offset {
    long long Const = 0;
    long long PerTrip = 0;
    bool operator==(const Offset &O) const {
      return Const == O.Const && PerTrip == O.PerTrip;
    }
  };

  /// `int c = <2-D grid>;`, the cursor every store of the parameter uses.
  bool findCursor(const CompoundStmt *Body) {
    for (const Stmt *S : Body->body()) {
      const auto *DS = dyn_cast<DeclStmt>(S);
      if (!DS)
        continue;
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !V->getInit() || !V->getType()->isIntegerType())
          continue;
        std::optional<LinearIndex::Grid> G = Index.grid(V->getInit());
        if (G && G->RowDim >= 0 && G->ColDim + G->RowDim == 1 &&
            G->WidthParam >= 0) {
          Cursor = V;
          Grid = *G;
          return true;
        }
      }
    }
    return false;
  }

  /// `c += nx * ny` (or a local holding it): one plane on. Sets PlaneRows.
  bool isAdvance(const Stmt *S) {
    const auto *A = dyn_cast<CompoundAssignOperator>(S);
    if (!A || A->getOpcode() != BO_AddAssign || !isCursor(A->getLHS()))
      return false;
    const auto *Mul = dyn_cast<BinaryOperator>(Index.resolve(A->getRHS()));
    if (!Mul || Mul->getOpcode() != BO_Mul)
      return false;
    for (int Swap = 0; Swap < 2; ++Swap) {
      if (Index.scalarParam(Swap ? Mul->getRHS() : Mul->getLHS()) !=
          Grid.WidthParam)
        continue;
      int Rows = Index.scalarParam(Swap ? Mul->getLHS() : Mul->getRHS());
      if (Rows < 0 || (PlaneRows >= 0 && PlaneRows != Rows))
        return false;
      PlaneRows = Rows;
      return true;
    }
    return false;
  }

  bool isCursor(const Expr *E) const {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == Cursor;
  }

  /// `out[c] = …`.
  bool isStore(const Stmt *S) const {
    const auto *B = dyn_cast<BinaryOperator>(S);
    if (!B || B->getOpcode() != BO_Assign)
      return false;
    const auto *AS = dyn_cast<ArraySubscriptExpr>(B->getLHS()->IgnoreParens());
    if (!AS || !isCursor(AS->getIdx()))
      return false;
    const auto *Base = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
    return Base && Base->getDecl() == Param;
  }

  /// One top-level statement: a store, an advance, the counted loop, or
  /// anything that neither changes the cursor nor leaves early.
  bool step(const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S); E && isStore(E->IgnoreImplicit())) {
      store(At, {At.Const + 1, At.PerTrip}, E);
      return true;
    }
    if (isAdvance(S)) {
      ++At.Const;
      return true;
    }
    if (const auto *For = dyn_cast<ForStmt>(S); For && !Loop.Var)
      return loop(For);
    return !mayExitEarly(S) &&
           !changes(S, Cursor);
  }

  /// `for (int k = A; k < B; ++k) { …; out[c] = …; …; c += xy; }`: one
  /// store at the iteration's plane and one advance per iteration, so the
  /// loop stores planes [At, At + trips).
  bool loop(const ForStmt *For) {
    std::optional<CountedLoop> L = countedLoop(For, Index);
    if (!L || mayExitEarly(For->getBody()))
      return false;
    Loop = *L;
    // The body, relative to its iteration's plane: exactly one store at
    // it, then exactly one advance.
    const auto *Body = dyn_cast<CompoundStmt>(For->getBody());
    if (!Body)
      return false;
    int Stores = 0, Advances = 0;
    const Expr *Store = nullptr;
    for (const Stmt *S : Body->body()) {
      if (const auto *E = dyn_cast<Expr>(S); E && isStore(E->IgnoreImplicit())) {
        if (Advances)
          return false;
        ++Stores;
        Store = E;
      } else if (isAdvance(S)) {
        ++Advances;
      } else if (changes(S, Cursor)) {
        return false;
      }
    }
    if (Stores != 1 || Advances != 1)
      return false;
    if (Loop.Trips) {
      store(At, {At.Const + *Loop.Trips, At.PerTrip}, Store);
      At.Const += *Loop.Trips;
    } else {
      store(At, {At.Const, At.PerTrip + 1}, Store);
      ++At.PerTrip;
    }
    return true;
  }

  void store(Offset Lo, Offset Hi, const Expr *E) {
    Stored.emplace_back(Lo, Hi);
    if (!FirstStore)
      FirstStore = E;
  }

  const FunctionDecl *Kernel;
  const ParmVarDecl *Param;
  LinearIndex Index;
  const VarDecl *Cursor = nullptr;
  LinearIndex::Grid Grid;
  int PlaneRows = -1;
  Offset At;
  CountedLoop Loop;
  std::vector<std::pair<Offset, Offset>> Stored;
  const Expr *FirstStore = nullptr;
};

bool sameExpression(ASTContext &Ctx, const Expr *A, const Expr *B) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

} // namespace

Coverage findCoverage(const FunctionDecl *Kernel, unsigned ParamIndex) {
  Coverage C = CoverageFinder(Kernel, ParamIndex).find();
  if (!C.Covers)
    C = PlaneWalkFinder(Kernel, ParamIndex).find();
  return C;
}

namespace {

/// Every reference to a kernel parameter in the body, and the subscript
/// each one is the base of (none: `p + 1`, `*p`, a helper call).
struct ParamUses : RecursiveASTVisitor<ParamUses> {
  const ParmVarDecl *Param;
  std::vector<const DeclRefExpr *> Refs;
  std::map<const DeclRefExpr *, const ArraySubscriptExpr *> Subscripts;

  ParamUses(const FunctionDecl *Kernel, const ParmVarDecl *Param)
      : Param(Param) {
    TraverseStmt(Kernel->getBody());
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    if (const auto *Base =
            dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
        Base && Base->getDecl() == Param)
      Subscripts[Base] = AS;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == Param)
      Refs.push_back(Ref);
    return true;
  }
};

/// The covering store's subscript, `x[i]` of `x[i] = …` (or of `x[i] op= …`
/// when compound stores count).
const ArraySubscriptExpr *storeSubscript(const Coverage &C,
                                         bool CompoundToo) {
  const Expr *Store = C.Store->IgnoreImplicit()->IgnoreParens();
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(Store);
      BO && (CompoundToo || BO->getOpcode() == BO_Assign))
    Target = BO->getLHS();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Store);
           Op && (CompoundToo || Op->getOperator() == OO_Equal))
    Target = Op->getArg(0);
  return Target ? dyn_cast<ArraySubscriptExpr>(Target->IgnoreParens())
                : nullptr;
}

/// `Use` names the element the covering store writes in the same
/// work-item. A grid's element is the same when the index is the same
/// expression (its parts are never assigned: see LinearIndex::grid).
bool sameElementAsStore(const ArraySubscriptExpr *Use,
                        const ArraySubscriptExpr *Store, const Coverage &C,
                        LinearIndex &Index, ASTContext &Ctx) {
  if (C.Grid.Valid || !C.Offset.empty())
    return Store && sameExpression(Ctx, Use->getIdx(), Store->getIdx());
  return Index.dims(Use->getIdx()) == C.Dims;
}

} // namespace

/// `x[i] = 0; for (…) x[i] += …;`: after the covering plain store, every use
/// of the parameter is an element at the same linear index, inside the
/// store's scope. Each work-item then reads only what it wrote first, so the
/// host's contents are never read.
bool readsOnlyOwnWrites(const FunctionDecl *Kernel, const ParmVarDecl *Param,
                        const Coverage &C, ASTContext &Ctx) {
  if (!C.Covers || !C.Store || !C.Scope)
    return false;
  const ArraySubscriptExpr *Store = storeSubscript(C, /*CompoundToo=*/false);
  if (!Store)
    return false; // `x[i] += …` reads before it stores
  const SourceManager &SM = Ctx.getSourceManager();
  ParamUses U(Kernel, Param);
  LinearIndex Index(Kernel);
  SourceRange Scope = C.Scope->getSourceRange();
  SourceLocation StoreEnd =
      C.Store->IgnoreImplicit()->IgnoreParens()->getEndLoc();
  for (const DeclRefExpr *Ref : U.Refs) {
    auto It = U.Subscripts.find(Ref);
    if (It == U.Subscripts.end())
      return false;
    if (It->second == Store)
      continue;
    SourceLocation L = Ref->getBeginLoc();
    if (!sameElementAsStore(It->second, Store, C, Index, Ctx) ||
        !SM.isBeforeInTranslationUnit(StoreEnd, L) ||
        SM.isBeforeInTranslationUnit(Scope.getEnd(), L))
      return false;
  }
  return true;
}

bool storesOnlyCovered(const FunctionDecl *Kernel, const ParmVarDecl *Param,
                       const Coverage &C, ASTContext &Ctx) {
  if (!C.Covers || !C.Store || !C.Scope)
    return false;
  const ArraySubscriptExpr *Store = storeSubscript(C, /*CompoundToo=*/true);
  if (!Store)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  ParamUses U(Kernel, Param);
  LinearIndex Index(Kernel);
  SourceRange Scope = C.Scope->getSourceRange();
  for (const DeclRefExpr *Ref : U.Refs) {
    auto It = U.Subscripts.find(Ref);
    if (It == U.Subscripts.end())
      return false;
    SourceLocation L = Ref->getBeginLoc();
    if (SM.isBeforeInTranslationUnit(L, Scope.getBegin()) ||
        SM.isBeforeInTranslationUnit(Scope.getEnd(), L))
      return false; // outside the guard that bounds the store
    if (It->second != Store &&
        !sameElementAsStore(It->second, Store, C, Index, Ctx))
      return false;
  }
  return true;
}

} // namespace ferry
