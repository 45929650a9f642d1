#include "analyses/paths/ElementSteps.h"

#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ferry {

QualType containerElementType(QualType T) {
  if (T.isNull() || T->isReferenceType() || T->isPointerType())
    return {};
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace())
    return {};
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Type ||
      !isBufferType(Args[0].getAsType()))
    return {};
  // A container has elements to walk; `std::unique_ptr<Buffer<T>>` or
  // `std::optional<Buffer<T>>` holds one buffer a path cannot spell.
  if (Spec->hasDefinition() &&
      Spec->getDefinition()
          ->lookup(&Spec->getASTContext().Idents.get("begin"))
          .empty())
    return {};
  return bufferElementType(Args[0].getAsType());
}

bool isBufferContainerType(QualType T) {
  return !containerElementType(T).isNull();
}

/// `E` as the container it denotes: through parentheses, casts and
/// references bound to a container (a reference never comes to name
/// another one; a range-for's `__range` is such a reference).
static const Expr *containerExpr(const Expr *E) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (!isBufferContainerType(E->getType().getNonReferenceType()))
      return nullptr;
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !V->getType()->isReferenceType() || isa<ParmVarDecl>(V) ||
        !V->getInit() || V->hasGlobalStorage())
      return E;
    E = V->getInit();
  }
  return nullptr;
}

/// The iterator variable's container: `auto __begin = __range.begin()`
/// of a range-for (implicit, so nothing re-points it).
static const Expr *iteratorContainer(const Expr *It) {
  const auto *Ref = dyn_cast<DeclRefExpr>(It->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->isImplicit() || !V->getInit())
    return nullptr;
  const Expr *Init = V->getInit()->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
      Construct && Construct->getNumArgs() == 1)
    Init = Construct->getArg(0)->IgnoreImplicit();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Init))
    if (const CXXMethodDecl *M = MC->getMethodDecl();
        M && M->getIdentifier() &&
        (M->getName() == "begin" || M->getName() == "cbegin"))
      return containerExpr(MC->getImplicitObjectArgument());
  return nullptr;
}

const Expr *elementContainer(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      return containerExpr(Op->getArg(0));
    if (Op->getOperator() == OO_Star && Op->getNumArgs() == 1)
      return iteratorContainer(Op->getArg(0));
    return nullptr;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return iteratorContainer(UO->getSubExpr()); // std::array's pointers
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const CXXMethodDecl *M = MC->getMethodDecl();
        M && M->getIdentifier() &&
        (M->getName() == "at" || M->getName() == "front" ||
         M->getName() == "back"))
      return containerExpr(MC->getImplicitObjectArgument());
  return nullptr;
}

bool changesElements(const CallExpr *Call, const Expr *&Container) {
  const CXXMethodDecl *M = nullptr;
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    M = MC->getMethodDecl();
    Object = MC->getImplicitObjectArgument();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    Object = Op->getNumArgs() > 0 ? Op->getArg(0) : nullptr;
  }
  if (!M || !Object || M->isConst())
    return false;
  QualType T = Object->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  if (!isBufferContainerType(T.getUnqualifiedType()))
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Subscript)
    return false;
  if (M->getIdentifier()) {
    llvm::StringRef N = M->getName();
    // Element access, iteration and size: the buffers stay where they
    // are. (reserve and shrink_to_fit move them, states and all.)
    for (const char *Keeps :
         {"at", "front", "back", "begin", "end", "cbegin", "cend", "rbegin",
          "rend", "crbegin", "crend", "data", "size", "empty", "capacity",
          "max_size", "reserve", "shrink_to_fit"})
      if (N == Keeps)
        return false;
  }
  Container = Object;
  return true;
}

} // namespace ferry
