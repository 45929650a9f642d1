#include "analyses/kernel/AffineIndex.h"

#include "analyses/LoopShape.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <numeric>

using namespace clang;

namespace ferry {

namespace {

/// The id a KernelContext field is, if it is one.
std::optional<AffineId> idField(llvm::StringRef Name) {
  static const char *const Names[AffineIdCount] = {
      "x", "y", "z", "localX", "localY", "localZ", "groupX", "groupY",
      "groupZ"};
  Name = contextFieldMeaning(Name);
  for (int I = 0; I < AffineIdCount; ++I)
    if (Name == Names[I])
      return static_cast<AffineId>(I);
  return std::nullopt;
}

const char *const IdNames[AffineIdCount] = {
    "kc.x",      "kc.y",      "kc.z",      "kc.localX", "kc.localY",
    "kc.localZ", "kc.groupX", "kc.groupY", "kc.groupZ"};

AffineIndex notAffine() { return AffineIndex(); }

AffineIndex constant(long long K) {
  AffineIndex R;
  R.Affine = true;
  R.Constant = K;
  return R;
}

void scale(AffineIndex &R, long long K) {
  R.Constant *= K;
  for (long long &C : R.Ids)
    C *= K;
  for (auto *Map : {&R.Uniform, &R.PerGroup})
    for (auto It = Map->begin(); It != Map->end();) {
      It->second *= K;
      It = It->second == 0 ? Map->erase(It) : std::next(It);
    }
}

void add(AffineIndex &R, const AffineIndex &O) {
  if (!R.Affine || !O.Affine) {
    R = notAffine();
    return;
  }
  R.Constant += O.Constant;
  for (int I = 0; I < AffineIdCount; ++I)
    R.Ids[I] += O.Ids[I];
  auto Merge = [](std::map<std::string, long long> &Into,
                  const std::map<std::string, long long> &From) {
    for (const auto &[Key, C] : From)
      if ((Into[Key] += C) == 0)
        Into.erase(Key);
  };
  Merge(R.Uniform, O.Uniform);
  Merge(R.PerGroup, O.PerGroup);
  R.Unstable.insert(O.Unstable.begin(), O.Unstable.end());
}

/// Every variable E reads is a parameter the function never changes.
bool readsOnlyFixedParams(const Expr *E, const Stmt *Body) {
  struct Find : RecursiveASTVisitor<Find> {
    const Stmt *Body = nullptr;
    bool Fixed = true;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        Fixed = Fixed && !changes(Body, P);
      else if (isa<VarDecl>(DRE->getDecl()))
        Fixed = false;
      return true;
    }
  } Finder;
  Finder.Body = Body;
  Finder.TraverseStmt(const_cast<Expr *>(E));
  return Finder.Fixed;
}

class Builder {
public:
  Builder(const FunctionDecl *F, const WorkItemVariance &V) : F(F), V(V) {}

  AffineIndex of(const Expr *E, int Depth = 0) const {
    if (Depth > 16 || E->isValueDependent() || E->isTypeDependent())
      return notAffine();
    E = E->IgnoreParens();
    if (std::optional<long long> K = constantOf(E))
      return constant(*K);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() != CK_LValueToRValue)
        return ICE->getType()->isIntegerType() ? of(ICE->getSubExpr(), Depth + 1)
                                               : notAffine();
      const Expr *Sub = ICE->getSubExpr()->IgnoreParens();
      if (const auto *ME = dyn_cast<MemberExpr>(Sub);
          ME && isKernelContextType(ME->getBase()->getType())) {
        std::string Name = ME->getMemberDecl()->getNameAsString();
        AffineIndex R = constant(0);
        if (std::optional<AffineId> Id = idField(Name)) {
          R.Ids[*Id] = 1;
          return R;
        }
        if (contextFieldVariance(Name) != Variance::Uniform)
          return notAffine();
        R.Uniform["kc." + Name] = 1; // the sizes: fixed for the dispatch
        return R;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub)) {
        const auto *Var = dyn_cast<VarDecl>(DRE->getDecl());
        if (!Var || !Var->getType()->isIntegerType())
          return notAffine();
        // `int lx = kc.localX;`, never changed: the id itself.
        if (Var->isLocalVarDecl() && Var->getInit() &&
            !Var->getType()->isReferenceType() &&
            (Var->getType().isConstQualified() ||
             !changes(F->getBody(), Var)))
          return of(Var->getInit(), Depth + 1);
        std::string Key = "v:" + Var->getNameAsString() + "#" +
                          std::to_string(reinterpret_cast<uintptr_t>(Var));
        bool Stable =
            isa<ParmVarDecl>(Var) && !changes(F->getBody(), Var);
        return term(std::move(Key), V.of(ICE), Stable);
      }
      return opaque(E);
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return Cast->getType()->isIntegerType() &&
                     Cast->getSubExpr()->getType()->isIntegerType()
                 ? of(Cast->getSubExpr(), Depth + 1)
                 : opaque(E);
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Minus) {
        AffineIndex R = of(UO->getSubExpr(), Depth + 1);
        scale(R, -1);
        return R;
      }
      if (UO->getOpcode() == UO_Plus)
        return of(UO->getSubExpr(), Depth + 1);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Sub: {
        AffineIndex R = of(BO->getLHS(), Depth + 1);
        AffineIndex Right = of(BO->getRHS(), Depth + 1);
        if (BO->getOpcode() == BO_Sub)
          scale(Right, -1);
        add(R, Right);
        if (R.Affine)
          return R;
        break;
      }
      case BO_Mul: {
        std::optional<long long> K = constantOf(BO->getRHS());
        const Expr *Other = BO->getLHS();
        if (!K) {
          K = constantOf(BO->getLHS());
          Other = BO->getRHS();
        }
        if (K) {
          AffineIndex R = of(Other, Depth + 1);
          scale(R, *K);
          if (R.Affine)
            return R;
        }
        break;
      }
      case BO_Shl:
        if (std::optional<long long> K = constantOf(BO->getRHS());
            K && *K >= 0 && *K < 31) {
          AffineIndex R = of(BO->getLHS(), Depth + 1);
          scale(R, 1LL << *K);
          if (R.Affine)
            return R;
        }
        break;
      default:
        break;
      }
    }
    return opaque(E);
  }

private:
  std::optional<long long> constantOf(const Expr *E) const {
    Expr::EvalResult Result;
    if (E->isValueDependent() || !E->getType()->isIntegerType() ||
        !E->EvaluateAsInt(Result, F->getASTContext()))
      return std::nullopt;
    return Result.Val.getInt().getExtValue();
  }

  /// A term of its own: any other shape whose value every work-item of a
  /// group computes alike.
  AffineIndex opaque(const Expr *E) const {
    if (!E->getType()->isIntegerType())
      return notAffine();
    Variance Var = V.of(E);
    if (Var == Variance::Item)
      return notAffine();
    llvm::FoldingSetNodeID ID;
    E->Profile(ID, F->getASTContext(), /*Canonical=*/true);
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    E->printPretty(OS, nullptr, F->getASTContext().getPrintingPolicy());
    OS.flush();
    return term("e:" + Text + "#" + std::to_string(ID.ComputeHash()), Var,
                readsOnlyFixedParams(E, F->getBody()));
  }

  static AffineIndex term(std::string Key, Variance Var, bool Stable) {
    if (Var == Variance::Item)
      return notAffine();
    AffineIndex R = constant(0);
    if (!Stable)
      R.Unstable.insert(Key);
    (Var == Variance::Uniform ? R.Uniform : R.PerGroup)[std::move(Key)] = 1;
    return R;
  }

  const FunctionDecl *F;
  const WorkItemVariance &V;
};

/// A's terms that are not ids cancel against B's, and are stable: the
/// same value at both points.
bool termsCancel(const AffineIndex &A, const AffineIndex &B) {
  for (const auto *Maps : {&A, &B})
    for (const auto *Map : {&Maps->Uniform, &Maps->PerGroup})
      for (const auto &[Key, C] : *Map)
        if (A.Unstable.count(Key) || B.Unstable.count(Key))
          return false;
  return A.Uniform == B.Uniform && A.PerGroup == B.PerGroup;
}

/// kc.localSizeX/Y/Z read as the shape's sizes.
AffineIndex withShape(AffineIndex A, const GroupShape &Shape) {
  static const char *const Sizes[3] = {"kc.localSizeX", "kc.localSizeY",
                                       "kc.localSizeZ"};
  for (int D = 0; D < 3; ++D)
    if (auto It = A.Uniform.find(Sizes[D]); It != A.Uniform.end()) {
      A.Constant += It->second * Shape[D];
      A.Uniform.erase(It);
    }
  return A;
}

} // namespace

bool AffineIndex::dependsOnIds() const {
  for (long long C : Ids)
    if (C != 0)
      return true;
  return false;
}

AffineIndex AffineIndex::withinGroup() const {
  AffineIndex R = *this;
  if (!R.Affine)
    return R;
  static const char *const Bases[3] = {"kc.groupFirstX", "kc.groupFirstY",
                                       "kc.groupFirstZ"};
  for (int D = 0; D < 3; ++D) {
    if (long long C = R.Ids[GlobalX + D]) {
      R.Ids[LocalX + D] += C;
      if ((R.PerGroup[Bases[D]] += C) == 0)
        R.PerGroup.erase(Bases[D]);
      R.Ids[GlobalX + D] = 0;
    }
    if (long long C = R.Ids[GroupX + D]) {
      if ((R.PerGroup[IdNames[GroupX + D]] += C) == 0)
        R.PerGroup.erase(IdNames[GroupX + D]);
      R.Ids[GroupX + D] = 0;
    }
  }
  return R;
}

AffineIndex affineIndex(const Expr *E, const FunctionDecl *F,
                        const WorkItemVariance &V) {
  if (!E || !F || !F->hasBody())
    return AffineIndex();
  return Builder(F, V).of(E);
}

bool distinctItemsMeet(const AffineIndex &AIn, const AffineIndex &BIn,
                       const GroupShape &Shape) {
  if (!AIn.Affine || !BIn.Affine)
    return false;
  for (long long S : Shape)
    if (S < 1)
      return false;
  AffineIndex A = withShape(AIn.withinGroup(), Shape);
  AffineIndex B = withShape(BIn.withinGroup(), Shape);
  if (!termsCancel(A, B))
    return false;
  // A(a) == B(b): sum B_d b_d == sum A_d a_d + Target.
  long long Target = A.Constant - B.Constant;
  std::vector<int> Dims;
  bool OtherDimsSplit = false; // some dimension no form mentions has 2 items
  for (int D = 0; D < 3; ++D) {
    if (A.Ids[LocalX + D] != 0 || B.Ids[LocalX + D] != 0)
      Dims.push_back(D);
    else if (Shape[D] >= 2)
      OtherDimsSplit = true;
  }
  long long Box = 1;
  for (int D : Dims) {
    Box *= Shape[D];
    if (Box > (1LL << 16))
      return false;
  }
  if (Dims.empty())
    return Target == 0 && (Box >= 2 || OtherDimsSplit);
  // The dimension of b solved for rather than searched: B's last nonzero.
  int Solved = -1;
  for (int D : Dims)
    if (B.Ids[LocalX + D] != 0)
      Solved = D;
  long long Budget = 1LL << 22;
  std::array<long long, 3> a{}, b{};
  auto Meets = [&](const std::array<long long, 3> &X,
                   const std::array<long long, 3> &Y) {
    return X != Y || OtherDimsSplit;
  };
  // Odometer over a box of the mentioned dimensions (skipping `Skip`).
  auto Next = [&](std::array<long long, 3> &P, int Skip) {
    for (int D : Dims) {
      if (D == Skip)
        continue;
      if (++P[D] < Shape[D])
        return true;
      P[D] = 0;
    }
    return false;
  };
  do {
    long long Left = Target;
    for (int D : Dims)
      Left += A.Ids[LocalX + D] * a[D];
    // Now: sum B_d b_d == Left.
    b = {0, 0, 0};
    do {
      if (--Budget < 0)
        return false;
      long long Rest = Left;
      for (int D : Dims)
        if (D != Solved)
          Rest -= B.Ids[LocalX + D] * b[D];
      if (Solved < 0) {
        if (Rest == 0 && Meets(a, b))
          return true;
        continue;
      }
      long long C = B.Ids[LocalX + Solved];
      if (Rest % C != 0)
        continue;
      long long V = Rest / C;
      if (V < 0 || V >= Shape[Solved])
        continue;
      b[Solved] = V;
      if (Meets(a, b))
        return true;
      b[Solved] = 0;
    } while (Next(b, Solved));
  } while (Next(a, -1));
  return false;
}

bool distinctItemsCollide(const AffineIndex &A, const GroupShape &Global) {
  if (!A.Affine || !A.PerGroup.empty())
    return false;
  for (int I = LocalX; I < AffineIdCount; ++I)
    if (A.Ids[I] != 0)
      return false;
  for (int D = 0; D < 3; ++D)
    if (Global[D] >= 2 && A.Ids[GlobalX + D] == 0)
      return true;
  for (int D = 0; D < 3; ++D)
    for (int E = D + 1; E < 3; ++E) {
      long long CD = A.Ids[GlobalX + D], CE = A.Ids[GlobalX + E];
      if (CD == 0 || CE == 0)
        continue;
      long long G = std::gcd(std::llabs(CD), std::llabs(CE));
      if (std::llabs(CE / G) < Global[D] && std::llabs(CD / G) < Global[E])
        return true;
    }
  return false;
}

std::string affineText(const AffineIndex &A) {
  if (!A.Affine)
    return "(not affine)";
  std::string Out;
  auto Term = [&](long long C, const std::string &Name) {
    if (C == 0)
      return;
    if (Out.empty())
      Out += C < 0 ? "-" : "";
    else
      Out += C < 0 ? " - " : " + ";
    if (std::llabs(C) != 1)
      Out += std::to_string(std::llabs(C)) + "*";
    Out += Name;
  };
  for (int I = 0; I < AffineIdCount; ++I)
    Term(A.Ids[I], IdNames[I]);
  for (const auto *Map : {&A.Uniform, &A.PerGroup})
    for (const auto &[Key, C] : *Map) {
      std::string Name = Key;
      if (llvm::StringRef(Name).starts_with("v:") ||
          llvm::StringRef(Name).starts_with("e:"))
        Name = Name.substr(2, Name.rfind('#') - 2);
      if (A.Unstable.count(Key))
        Name += "'";
      Term(C, Name);
    }
  if (A.Constant != 0 || Out.empty()) {
    if (Out.empty())
      Out = std::to_string(A.Constant);
    else
      Out += (A.Constant < 0 ? " - " : " + ") +
             std::to_string(std::llabs(A.Constant));
  }
  return Out;
}

} // namespace ferry
