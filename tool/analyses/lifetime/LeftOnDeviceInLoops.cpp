// Following one buffer through a compute's code, to see that nothing but
// kernels touches it (LeftOnDeviceInLoops.h).
#include "analyses/lifetime/LeftOnDeviceInLoops.h"

#include "analyses/CallGraphs.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <set>
#include <tuple>

using namespace clang;

namespace ferry {
namespace {

/// The calls followed already (recursion adds no use of its own).
using Visit = std::tuple<const Stmt *, const ValueDecl *, FieldPath>;

class Walker {
public:
  KernelUse Use;
  const KernelUseElsewhere *Elsewhere = nullptr;

  void walk(const Stmt *Body, const ValueDecl *Root, const FieldPath &Path,
            int Depth) {
    std::vector<const Expr *> Found =
        occurrences(Body, Root, Path, Depth, Seen);
    if (Found.empty())
      return;
    ParentMap Parents(const_cast<Stmt *>(Body));
    for (const Expr *Occurrence : Found) {
      use(Occurrence, Parents, Root ? Root->getType()->isPointerType() : true,
          Root && Root->getType()->isPointerType(), Path, Depth);
      if (!Use.OnlyKernels)
        return;
    }
  }

  /// Each occurrence of Root, a container of objects (`std::vector<Body>`,
  /// an array of them, or a reference to one), in Body: asked its size,
  /// walked by a range-for whose element is a reference, indexed, or
  /// handed by reference to a function Ferry sees. Each element then holds
  /// the buffer at Path as an object would.
  void walkElements(const Stmt *Body, const ValueDecl *Root,
                    const FieldPath &Path, int Depth) {
    if (!Root) { // (a container always has a name)
      Use.OnlyKernels = false;
      return;
    }
    std::vector<const Expr *> Found =
        occurrences(Body, Root, Path, Depth, SeenElements);
    if (Found.empty())
      return;
    ParentMap Parents(const_cast<Stmt *>(Body));
    for (const Expr *Occurrence : Found) {
      container(Occurrence, Body, Parents, Path, Depth);
      if (!Use.OnlyKernels)
        return;
    }
  }

private:
  std::set<Visit> Seen, SeenElements;

  /// Root's occurrences in Body (`this`'s where Root is null), or none where
  /// the walk ends here: Body is walked for Root and Path already (in
  /// Walked), or the calls followed are too deep (then nothing is proven).
  std::vector<const Expr *> occurrences(const Stmt *Body, const ValueDecl *Root,
                                        const FieldPath &Path, int Depth,
                                        std::set<Visit> &Walked) {
    if (!Body || !Use.OnlyKernels)
      return {};
    if (Depth > 6) {
      Use.OnlyKernels = false;
      return {};
    }
    if (!Walked.insert({Body, Root, Path}).second)
      return {};
    struct Find : RecursiveASTVisitor<Find> {
      const ValueDecl *Root;
      std::vector<const Expr *> Found;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (Root && R->getDecl() == Root)
          Found.push_back(R);
        return true;
      }
      bool VisitCXXThisExpr(CXXThisExpr *T) {
        if (!Root)
          Found.push_back(T);
        return true;
      }
      // A local class's members have an object of their own.
      bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
    } F;
    F.Root = Root;
    F.TraverseStmt(const_cast<Stmt *>(Body));
    return F.Found;
  }

  void container(const Expr *Occurrence, const Stmt *Body,
                 const ParentMap &Parents, const FieldPath &Path, int Depth) {
    auto [U, Child] = user(Parents, Occurrence);
    // `for (auto &b : bodies)`: the range's hidden `auto &&__range = bodies`.
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(U)) {
      const auto *For = dyn_cast_or_null<CXXForRangeStmt>(up(Parents, DS));
      if (For && For->getRangeStmt() == DS &&
          For->getLoopVariable()->getType()->isLValueReferenceType()) {
        walk(For->getBody(), For->getLoopVariable(), Path, Depth + 1);
        return;
      }
      Use.OnlyKernels = false;
      return;
    }
    // `bodies[i]` of an array.
    if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(U);
        AS && AS->getBase()->IgnoreParenImpCasts() == Occurrence) {
      element(AS, Body, Parents, Path, Depth);
      return;
    }
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(U);
        Op && Op->getOperator() == OO_Subscript && Op->getArg(0) == Child) {
      element(Op, Body, Parents, Path, Depth);
      return;
    }
    // `bodies.size()`; `bodies.at(i)`, `front()`, `back()`: an element.
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(U)) {
      const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(up(Parents, ME));
      if (M && Call && M->getIdentifier()) {
        llvm::StringRef Name = M->getName();
        if (M->isConst() && (Name == "size" || Name == "empty"))
          return;
        if (Name == "at" || Name == "front" || Name == "back") {
          element(Call, Body, Parents, Path, Depth);
          return;
        }
      }
      Use.OnlyKernels = false;
      return;
    }
    // Handed on by reference: its elements in there.
    const auto *Call = dyn_cast_or_null<CallExpr>(U);
    const FunctionDecl *Callee = Call && !isa<CXXOperatorCallExpr>(Call)
                                     ? Call->getDirectCallee()
                                     : nullptr;
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || isRuntimeFunction(Def) ||
        (isa<CXXMethodDecl>(Def) && cast<CXXMethodDecl>(Def)->isVirtual())) {
      Use.OnlyKernels = false;
      return;
    }
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Child) {
        if (I >= Def->getNumParams() ||
            !Def->getParamDecl(I)->getType()->isLValueReferenceType()) {
          Use.OnlyKernels = false;
          return;
        }
        walkElements(Def->getBody(), Def->getParamDecl(I), Path, Depth + 1);
        return;
      }
    Use.OnlyKernels = false;
  }

  /// One element, an object: bound to a reference (`auto &b = bodies[i];`),
  /// or used where it stands, as a variable holding it would be.
  void element(const Expr *Element, const Stmt *Body, const ParentMap &Parents,
               const FieldPath &Path, int Depth) {
    auto [U, Child] = user(Parents, Element);
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(U)) {
      const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                         : nullptr;
      if (V && V->getType()->isLValueReferenceType() && V->getInit() &&
          V->getInit()->IgnoreImplicit() == Child->IgnoreImplicit()) {
        walk(Body, V, Path, Depth + 1);
        return;
      }
      Use.OnlyKernels = false;
      return;
    }
    use(Element, Parents, /*Pointer=*/false, /*PointerVariable=*/false, Path,
        Depth);
  }

  static const Stmt *up(const ParentMap &Parents, const Stmt *S) {
    return Parents.getParent(const_cast<Stmt *>(S));
  }

  /// The expression around E past parentheses and implicit casts, and the
  /// child of it that holds E.
  static std::pair<const Stmt *, const Expr *>
  user(const ParentMap &Parents, const Expr *E) {
    const Stmt *P = up(Parents, E);
    while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) ||
                 isa<MaterializeTemporaryExpr>(P) ||
                 isa<CXXBindTemporaryExpr>(P))) {
      E = cast<Expr>(P);
      P = up(Parents, P);
    }
    return {P, E};
  }

  /// One occurrence of the root: the path of members it starts, then what
  /// the code does with the object or buffer that path ends at.
  /// (Pointer: the occurrence is a pointer, `this` or a pointer variable;
  /// PointerVariable: the latter, whose member function calls are `m->f()`.)
  void use(const Expr *Occurrence, const ParentMap &Parents, bool Pointer,
           bool PointerVariable, const FieldPath &Path, int Depth) {
    FieldPath Spelled;
    const Expr *At = Occurrence;
    for (bool First = true;; First = false) {
      auto [P, Child] = user(Parents, At);
      // `(*m).u` of a pointer root, at its first step only.
      if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
          UO && UO->getOpcode() == UO_Deref && First && Pointer) {
        At = UO;
        Pointer = false;
        continue;
      }
      const auto *ME = dyn_cast_or_null<MemberExpr>(P);
      const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
      if (!FD || ME->isArrow() != (First && Pointer))
        break;
      Spelled.push_back(FD);
      At = ME;
    }
    if (PointerVariable && Spelled.empty()) {
      // `m->step(cc)`: a member function called on the object pointed to.
      auto [U, Child] = user(Parents, At);
      if (const auto *ME = dyn_cast_or_null<MemberExpr>(U);
          ME && ME->isArrow() && isa<CXXMethodDecl>(ME->getMemberDecl())) {
        object(U, Child, Parents, Path, Depth);
        return;
      }
      Use.OnlyKernels = false; // the pointer itself, handed on or tested
      return;
    }
    if (pathsDiverge(Spelled, Path))
      return; // another member of the object
    if (Spelled.size() > Path.size()) {
      Use.OnlyKernels = false;
      return;
    }
    FieldPath Rest(Path.begin() + Spelled.size(), Path.end());
    auto [U, Child] = user(Parents, At);
    if (Rest.empty()) {
      buffer(U, Child, Parents, Depth);
      return;
    }
    object(U, Child, Parents, Rest, Depth);
  }

  /// The buffer itself, as an argument or the object of a call.
  void buffer(const Stmt *U, const Expr *Child, const ParentMap &Parents,
              int Depth) {
    const auto *Call = dyn_cast_or_null<CallExpr>(U);
    if (Call && isDispatchCall(Call)) {
      for (unsigned I = 1; I < Call->getNumArgs(); ++I) {
        if (Call->getArg(I) != Child)
          continue;
        // Kernel parameter I - 1 binds argument I (0: the KernelContext).
        std::vector<const FunctionDecl *> Kernels = dispatchedKernels(Call);
        if (Kernels.empty())
          Use.Written = true;
        for (const FunctionDecl *K : Kernels) {
          if (I - 1 >= K->getNumParams()) {
            Use.Written = true;
            continue;
          }
          QualType T = K->getParamDecl(I - 1)->getType();
          if (!T->isPointerType() || !T->getPointeeType().isConstQualified())
            Use.Written = true;
        }
        return;
      }
      Use.OnlyKernels = false; // the kernel or the range
      return;
    }
    // `b.size()`: no element is read.
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(U)) {
      const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      if (M && M->isConst() && M->getIdentifier() &&
          (M->getName() == "size" || M->getName() == "empty"))
        return;
      Use.OnlyKernels = false;
      return;
    }
    if (!passedOn(Call, Child, {}, Depth))
      Use.OnlyKernels = false;
  }

  /// An object holding the buffer at Rest: the object of a member function
  /// call, or an argument bound to a reference.
  void object(const Stmt *U, const Expr *Child, const ParentMap &Parents,
              const FieldPath &Rest, int Depth) {
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(U)) {
      const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(up(Parents, ME));
      const FunctionDecl *Def = M ? M->getDefinition() : nullptr;
      if (!Call || !M || isRuntimeFunction(M) ||
          (M->isVirtual() && !M->hasAttr<FinalAttr>() &&
           !M->getParent()->hasAttr<FinalAttr>())) {
        Use.OnlyKernels = false;
        return;
      }
      if (!Def || !Def->hasBody()) {
        elsewhere(M, -1, Rest);
        return;
      }
      walk(Def->getBody(), nullptr, Rest, Depth + 1);
      return;
    }
    // `drive(cc, &st)`: the object handed by address to a pointer.
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(U);
        UO && UO->getOpcode() == UO_AddrOf) {
      auto [Call, Arg] = user(Parents, UO);
      if (!passedOn(dyn_cast_or_null<CallExpr>(Call), Arg, Rest, Depth,
                    /*ByAddress=*/true))
        Use.OnlyKernels = false;
      return;
    }
    if (!passedOn(dyn_cast_or_null<CallExpr>(U), Child, Rest, Depth))
      Use.OnlyKernels = false;
  }

  /// Child as an argument of Call bound to a reference parameter (a
  /// pointer one for `&x`, ByAddress) of a function whose body Ferry sees:
  /// followed in there.
  bool passedOn(const CallExpr *Call, const Expr *Child, const FieldPath &Rest,
                int Depth, bool ByAddress = false) {
    if (!Call || isa<CXXOperatorCallExpr>(Call))
      return false;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isRuntimeFunction(Callee))
      return false;
    const FunctionDecl *Def = Callee->getDefinition();
    bool Here = Def && Def->hasBody();
    if (!Here)
      Def = Callee;
    if (const auto *M = dyn_cast<CXXMethodDecl>(Def);
        M && M->isVirtual() && !M->hasAttr<FinalAttr>())
      return false;
    // (A member function's object is no argument here: `object` has it.)
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      if (Call->getArg(I) != Child)
        continue;
      if (I >= Def->getNumParams())
        return false; // an ellipsis
      const ParmVarDecl *P = Def->getParamDecl(I);
      if (ByAddress ? !P->getType()->isPointerType()
                    : !P->getType()->isReferenceType())
        return false; // a copy
      if (Here)
        walk(Def->getBody(), P, Rest, Depth + 1);
      else
        elsewhere(Def, static_cast<int>(I), Rest);
      return true;
    }
    return false;
  }

  /// A callee another Ferry source defines: what its summary says.
  void elsewhere(const FunctionDecl *Callee, int Param, const FieldPath &Rest) {
    std::optional<KernelUse> There;
    if (Elsewhere && *Elsewhere)
      There = (*Elsewhere)(Callee, Param, Rest);
    if (!There || !There->OnlyKernels) {
      Use.OnlyKernels = false;
      return;
    }
    Use.Written = Use.Written || There->Written;
  }
};

} // namespace

KernelUse elementsUsedOnlyByKernels(const Stmt *Body,
                                    const ValueDecl *Container,
                                    const FieldPath &Path,
                                    const KernelUseElsewhere *Elsewhere) {
  Walker W;
  W.Elsewhere = Elsewhere;
  W.walkElements(Body, Container, Path, 0);
  return W.Use;
}

KernelUse usedOnlyByKernels(const Stmt *Body, const ValueDecl *Root,
                            const FieldPath &Path,
                            const KernelUseElsewhere *Elsewhere) {
  Walker W;
  W.Elsewhere = Elsewhere;
  W.walk(Body, Root, Path, 0);
  return W.Use;
}

} // namespace ferry
