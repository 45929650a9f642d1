#include "analyses/kernel/KernelDispatches.h"

#include "analyses/paths/AccessPath.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

using namespace clang;

namespace ferry {

namespace {

/// A buffer argument as an object: a root and the access path of members
/// below it (AccessPath.h). Root kinds: a variable of its own (Var, not a
/// reference: a complete object), the object a reference parameter is
/// bound to (RefParam), or `*this` (This); the last two existed before the
/// function that names them was entered.
struct ObjectPath {
  enum class Root { Var, RefParam, This } Kind = Root::Var;
  const Decl *RootDecl = nullptr; // the VarDecl, ParmVarDecl, or function
  FieldPath Members;
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

} // namespace

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

  /// Every direct call of each function (by canonical declaration), and
  /// the functions named other than as a call's callee (their address
  /// taken: called from where Ferry cannot see).
  std::map<const FunctionDecl *, std::vector<Site>> CallsOf;
  std::set<const FunctionDecl *> NamedElsewhere;

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
        F && !Callees.count(Ref))
      NamedElsewhere.insert(F->getCanonicalDecl());
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *F = Call->getDirectCallee()) {
      CallsOf[F->getCanonicalDecl()].push_back({Call, Current});
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
        Callees.insert(Ref);
    }
    if (!isDispatchCall(Call))
      return true;
    std::vector<const FunctionDecl *> Kernels = dispatchedKernels(Call);
    if (Kernels.empty()) {
      Unresolved = true;
      return true;
    }
    for (const FunctionDecl *K : Kernels)
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
  /// The callee references of the calls seen (a call is visited before
  /// the reference inside it).
  std::set<const DeclRefExpr *> Callees;
};

namespace {

/// The buffer reference parameters `A` and `B` of `In` are bound to
/// different buffers at every call of it: In is a plain function only
/// this file can call (internal linkage), never named but as a call's
/// callee, and each of its calls passes two arguments `distinct` proves
/// different where that call is. Depth bounds the chain of callers.
bool callersPassDistinct(const FunctionDecl *In, const ParmVarDecl *A,
                         const ParmVarDecl *B, const DispatchFinder &Finder,
                         int Depth);

/// Two arguments of one dispatch in `In` are certainly different buffers.
bool distinct(const Expr *A, const Expr *B, const FunctionDecl *In,
              const DispatchFinder &Finder, int Depth = 0) {
  std::optional<ObjectPath> PA = objectOf(A, In), PB = objectOf(B, In);
  if (!PA || !PB)
    return false;
  if (PA->Kind == PB->Kind && PA->RootDecl == PB->RootDecl) {
    // The same root: different members somewhere along the paths.
    return pathsDiverge(PA->Members, PB->Members);
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
  if ((madeIn(*PA, In) && PB->Kind != R::Var) ||
      (madeIn(*PB, In) && PA->Kind != R::Var))
    return true;
  // Two reference parameters: what every caller binds them to.
  if (PA->Kind == R::RefParam && PB->Kind == R::RefParam &&
      PA->Members.empty() && PB->Members.empty())
    return callersPassDistinct(In, cast<ParmVarDecl>(PA->RootDecl),
                               cast<ParmVarDecl>(PB->RootDecl), Finder, Depth);
  return false;
}

bool callersPassDistinct(const FunctionDecl *In, const ParmVarDecl *A,
                         const ParmVarDecl *B, const DispatchFinder &Finder,
                         int Depth) {
  // A method's calls count their object differently; a function another
  // file may call, or one called through a pointer, has calls Ferry cannot
  // see.
  if (Depth >= 4 || !In || isa<CXXMethodDecl>(In) || In->isExternallyVisible() ||
      Finder.NamedElsewhere.count(In->getCanonicalDecl()))
    return false;
  auto It = Finder.CallsOf.find(In->getCanonicalDecl());
  if (It == Finder.CallsOf.end())
    return false;
  const unsigned IA = A->getFunctionScopeIndex(), IB = B->getFunctionScopeIndex();
  for (const DispatchFinder::Site &S : It->second)
    if (S.Call->getNumArgs() <= std::max(IA, IB) || !S.In ||
        !distinct(S.Call->getArg(IA), S.Call->getArg(IB), S.In, Finder,
                  Depth + 1))
      return false;
  return true;
}

} // namespace

std::string KernelDispatches::mayBeOneBuffer(const FunctionDecl *K,
                                             const ParmVarDecl *W,
                                             const ParmVarDecl *R) const {
  const DispatchFinder &Dispatches = *Finder;
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
    if (!distinct(S.Call->getArg(IW + 1), S.Call->getArg(IR + 1), S.In,
                  Dispatches))
      return Pair + " may be one buffer at a dispatch";
  }
  return "";
}


KernelDispatches::KernelDispatches(ASTContext &Ctx)
    : Finder(std::make_unique<DispatchFinder>()) {
  Finder->TraverseDecl(Ctx.getTranslationUnitDecl());
}

KernelDispatches::~KernelDispatches() = default;

} // namespace ferry
