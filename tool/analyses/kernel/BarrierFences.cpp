#include "analyses/kernel/BarrierFences.h"

#include "analyses/Access.h"
#include "analyses/CallGraphs.h"
#include "analyses/kernel/KernelAccess.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <optional>
#include <set>
#include <vector>

using namespace clang;

namespace ferry {

bool BarrierFences::globalFenceIn(const FunctionDecl *F) const {
  auto It = GlobalIn.find(F->getCanonicalDecl());
  return It == GlobalIn.end() || It->second;
}

namespace {

/// Whether T holds a pointer anywhere (a pointer, an array of them, a struct
/// with one): memory the access analysis would have to follow by hand.
bool holdsPointer(QualType T, int Depth = 0) {
  T = T.getCanonicalType();
  if (T->isPointerType() || T->isReferenceType())
    return true;
  if (Depth > 8)
    return true;
  if (const auto *A = dyn_cast<ArrayType>(T.getTypePtr()))
    return holdsPointer(A->getElementType(), Depth + 1);
  if (const auto *RD = T->getAsRecordDecl()) {
    if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
        CXX && CXX->hasDefinition())
      for (const CXXBaseSpecifier &B : CXX->bases())
        if (holdsPointer(B.getType(), Depth + 1))
          return true;
    for (const FieldDecl *F : RD->fields())
      if (holdsPointer(F->getType(), Depth + 1))
        return true;
  }
  return false;
}

/// What a kernel-reachable body does that matters here: whether it uses
/// local memory, and the first construct the analysis does not classify.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  bool UsesLocal = false;
  std::string Unclassified;

  bool VisitLambdaExpr(LambdaExpr *) {
    note("a lambda");
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (isLocalArrayType(V->getType()) || isLocalSpanType(V->getType())) {
      UsesLocal = true;
      return true;
    }
    // A plain pointer variable is an alias the access analysis follows;
    // pointers kept in arrays or structs are not.
    QualType T = V->getType();
    if (!isa<ParmVarDecl>(V) && !T->isPointerType() &&
        !T->isReferenceType() && holdsPointer(T))
      note("the variable '" + V->getNameAsString() + "', which holds pointers");
    if (!isa<ParmVarDecl>(V) && T->isPointerType() &&
        T->getPointeeType()->isPointerType())
      note("the pointer to pointers '" + V->getNameAsString() + "'");
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V || !V->hasGlobalStorage() || V->isStaticLocal())
      return true;
    if (isLocalArrayType(V->getType()))
      return true;
    // Constants are read-only (__constant on the device); the fence tag is
    // a constant too. Anything else at namespace scope is memory no
    // parameter names.
    if (!V->getType().isConstQualified())
      note("the global variable '" + V->getNameAsString() + "'");
    return true;
  }

private:
  void note(std::string What) {
    if (Unclassified.empty())
      Unclassified = std::move(What);
  }
};

// --- which objects a dispatch's buffer arguments are ------------------------

/// A buffer argument as an object: a root and a path of members below it.
/// Root kinds: a variable of its own (Var, not a reference: a complete
/// object), the object a reference parameter is bound to (RefParam), or
/// `*this` (This); the last two existed before the function that names them
/// was entered.
struct ObjectPath {
  enum class Root { Var, RefParam, This } Kind = Root::Var;
  const Decl *RootDecl = nullptr; // the VarDecl, ParmVarDecl, or function
  std::vector<const FieldDecl *> Members;
};

/// The function (or lambda call operator) whose body declares D.
const FunctionDecl *enclosingFunction(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *F = dyn_cast<FunctionDecl>(DC))
      return F;
  return nullptr;
}

std::optional<ObjectPath> objectOf(const Expr *E, const FunctionDecl *In) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return std::nullopt;
    ObjectPath P;
    if (!V->getType()->isReferenceType()) {
      P.Kind = ObjectPath::Root::Var;
      P.RootDecl = V;
      return P;
    }
    // A reference parameter of the function the dispatch is in: whatever
    // it is bound to existed before that call.
    if (isa<ParmVarDecl>(V) && enclosingFunction(V) == In) {
      P.Kind = ObjectPath::Root::RefParam;
      P.RootDecl = V;
      return P;
    }
    return std::nullopt; // a reference variable: any buffer
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field || Field->getType()->isReferenceType() || ME->isArrow() !=
        isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return std::nullopt; // through a pointer other than this: any object
    std::optional<ObjectPath> Base;
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
      Base = ObjectPath{ObjectPath::Root::This, In, {}};
    } else {
      Base = objectOf(ME->getBase(), In);
    }
    if (!Base)
      return std::nullopt;
    Base->Members.push_back(Field);
    return Base;
  }
  return std::nullopt;
}

/// A variable the function `In` itself made (not static): no object that
/// existed when `In` was entered is it.
bool madeIn(const ObjectPath &P, const FunctionDecl *In) {
  const auto *V = dyn_cast<VarDecl>(P.RootDecl);
  return P.Kind == ObjectPath::Root::Var && V && V->hasLocalStorage() &&
         !isa<ParmVarDecl>(V) && enclosingFunction(V) == In;
}

/// Two arguments of one dispatch in `In` are certainly different buffers.
bool distinct(const Expr *A, const Expr *B, const FunctionDecl *In) {
  std::optional<ObjectPath> PA = objectOf(A, In), PB = objectOf(B, In);
  if (!PA || !PB)
    return false;
  if (PA->Kind == PB->Kind && PA->RootDecl == PB->RootDecl) {
    // The same root: different members somewhere along the paths.
    for (size_t I = 0; I < PA->Members.size() && I < PB->Members.size(); ++I)
      if (PA->Members[I] != PB->Members[I])
        return true;
    return false;
  }
  using R = ObjectPath::Root;
  if (PA->Kind == R::Var && PB->Kind == R::Var)
    return true; // two complete objects of their own
  // A buffer variable (no members) is a complete object: no member of
  // anything is it.
  if ((PA->Kind == R::Var && PA->Members.empty() && !PB->Members.empty()) ||
      (PB->Kind == R::Var && PB->Members.empty() && !PA->Members.empty()))
    return true;
  // What existed before `In` was entered is not what `In` made.
  return (madeIn(*PA, In) && PB->Kind != R::Var) ||
         (madeIn(*PB, In) && PA->Kind != R::Var);
}

class DispatchFinder : public RecursiveASTVisitor<DispatchFinder> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  struct Site {
    const CallExpr *Call;
    const FunctionDecl *In;
  };
  std::map<const FunctionDecl *, std::vector<Site>> ByKernel;
  /// A dispatch whose kernel is not a plain name: it may be any kernel.
  bool Unresolved = false;

  bool TraverseFunctionDecl(FunctionDecl *F) { return inFunction(F, [&] {
      return RecursiveASTVisitor::TraverseFunctionDecl(F); }); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *F) { return inFunction(F, [&] {
      return RecursiveASTVisitor::TraverseCXXMethodDecl(F); }); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *F) {
    return inFunction(F, [&] {
      return RecursiveASTVisitor::TraverseCXXConstructorDecl(F); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *F) {
    return inFunction(F, [&] {
      return RecursiveASTVisitor::TraverseCXXDestructorDecl(F); });
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (!isDispatchCall(Call))
      return true;
    const FunctionDecl *K = dispatchedKernel(Call);
    if (!K) {
      Unresolved = true;
      return true;
    }
    ByKernel[K->getCanonicalDecl()].push_back({Call, Current});
    return true;
  }

private:
  template <class Fn> bool inFunction(const FunctionDecl *F, Fn Traverse) {
    const FunctionDecl *Saved = Current;
    Current = F;
    bool Ok = Traverse();
    Current = Saved;
    return Ok;
  }
  const FunctionDecl *Current = nullptr;
};

/// The reason written parameter W and read parameter R of kernel K may be
/// one buffer at a dispatch, or "" when every dispatch passes two different
/// buffers.
std::string mayAlias(const FunctionDecl *K, const ParmVarDecl *W,
                     const ParmVarDecl *R, const DispatchFinder &Dispatches) {
  QualType TW = W->getType()->getPointeeType().getUnqualifiedType();
  QualType TR = R->getType()->getPointeeType().getUnqualifiedType();
  if (!K->getASTContext().hasSameType(TW, TR))
    return ""; // a Buffer<T> binds T* alone: never one buffer
  const std::string Pair =
      "'" + W->getNameAsString() + "' and '" + R->getNameAsString() + "'";
  if (Dispatches.Unresolved)
    return Pair + " may be one buffer (a dispatch names no plain kernel)";
  auto It = Dispatches.ByKernel.find(K->getCanonicalDecl());
  if (It == Dispatches.ByKernel.end())
    return Pair + " may be one buffer (no dispatch in this file shows them)";
  const unsigned IW = W->getFunctionScopeIndex(),
                 IR = R->getFunctionScopeIndex();
  for (const DispatchFinder::Site &S : It->second) {
    // Argument 0 is the kernel, 1 the range; kernel parameter i (0 being
    // the KernelContext) binds argument i + 1.
    if (S.Call->getNumArgs() <= std::max(IW, IR) + 1)
      return Pair + " may be one buffer (a dispatch Ferry does not read)";
    if (!distinct(S.Call->getArg(IW + 1), S.Call->getArg(IR + 1), S.In))
      return Pair + " may be one buffer at a dispatch";
  }
  return "";
}

KernelFence decide(const FunctionDecl *K, const ReachableGraph &G,
                   FunctionAccessCache &Cache,
                   const DispatchFinder &Dispatches) {
  KernelFence Fence;
  bool UsesLocal = false;
  for (const FunctionDecl *F : G.Functions) {
    for (const ParmVarDecl *P : F->parameters())
      if (isLocalSpanType(P->getType()))
        UsesLocal = true;
    if (!F->hasBody())
      continue;
    BodyScan Scan;
    Scan.TraverseStmt(F->getBody());
    UsesLocal = UsesLocal || Scan.UsesLocal;
    if (!Scan.Unclassified.empty()) {
      Fence.Why = Scan.Unclassified + " in '" + F->getNameAsString() + "'";
      return Fence;
    }
  }
  if (!UsesLocal) {
    Fence.Why = "no local memory";
    return Fence;
  }
  // Buffers are the pointer parameters; anything else a kernel takes is
  // plain data (its context, scalars, structs of them, local spans).
  std::vector<const ParmVarDecl *> Written, Read;
  const std::vector<Access> &Summary = Cache.summary(K);
  for (unsigned I = 0; I < K->getNumParams(); ++I) {
    const ParmVarDecl *P = K->getParamDecl(I);
    QualType T = P->getType();
    if (isKernelContextType(T) || isLocalSpanType(T))
      continue;
    if (!T->isPointerType()) {
      if (holdsPointer(T)) {
        Fence.Why = "the parameter '" + P->getNameAsString() +
                    "', which holds pointers";
        return Fence;
      }
      continue;
    }
    const Access A = I < Summary.size() ? Summary[I] : Access::ReadWrite;
    if (reads(A) && writes(A)) {
      Fence.Why = "'" + P->getNameAsString() + "' is read and written";
      return Fence;
    }
    if (writes(A))
      Written.push_back(P);
    if (reads(A))
      Read.push_back(P);
  }
  for (const ParmVarDecl *W : Written)
    for (const ParmVarDecl *R : Read) {
      std::string Why = mayAlias(K, W, R, Dispatches);
      if (!Why.empty()) {
        Fence.Why = Why;
        return Fence;
      }
    }
  Fence.Global = false;
  Fence.Why = "no buffer is both written and read";
  return Fence;
}

} // namespace

BarrierFences analyzeBarrierFences(ASTContext &Ctx,
                                   llvm::ArrayRef<const FunctionDecl *>
                                       Kernels) {
  BarrierFences Result;
  DispatchFinder Dispatches;
  Dispatches.TraverseDecl(Ctx.getTranslationUnitDecl());
  FunctionAccessCache Cache;
  for (const FunctionDecl *K : Kernels) {
    ReachableGraph G = kernelReachableGraph(K);
    KernelFence Fence = decide(K, G, Cache, Dispatches);
    for (const FunctionDecl *F : G.Functions) {
      auto [It, New] =
          Result.GlobalIn.try_emplace(F->getCanonicalDecl(), Fence.Global);
      if (!New)
        It->second = It->second || Fence.Global;
    }
    Result.Kernels[K] = std::move(Fence);
  }
  return Result;
}

} // namespace ferry
