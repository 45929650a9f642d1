#include "analyses/paths/MemberSteps.h"

#include "analyses/CallGraphs.h"
#include "analyses/paths/AccessPath.h"
#include "analyses/paths/ElementSteps.h"

#include "model/FerryTypes.h"

#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace ferry {

bool isBufferField(const FieldDecl *FD) {
  if (!FD)
    return false;
  QualType T = FD->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return isBufferType(T);
}

bool isBufferContainerField(const FieldDecl *FD) {
  return FD && isBufferContainerType(FD->getType());
}

/// Whether code in F may name the member FD of an object (`obj.field`):
/// public, or F is a member of FD's class (or of a class nested in it,
/// or a lambda in one), or its friend. Protected members count as not
/// nameable: the object may not be of F's class.
bool memberNameableIn(const FieldDecl *FD, const FunctionDecl *F) {
  if (FD->getAccess() == AS_public || FD->getAccess() == AS_none)
    return true;
  const auto *Owner = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!Owner)
    return true;
  Owner = Owner->getCanonicalDecl();
  for (const DeclContext *DC = F; DC; DC = DC->getParent())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
      if (RD->getCanonicalDecl() == Owner)
        return true;
  for (const FriendDecl *Friend : Owner->friends()) {
    if (const NamedDecl *ND = Friend->getFriendDecl()) {
      for (const DeclContext *DC = F; DC; DC = DC->getParent())
        if (const auto *FnDC = dyn_cast<FunctionDecl>(DC))
          if (ND->getAsFunction() && ND->getAsFunction()->getCanonicalDecl() ==
                                         FnDC->getCanonicalDecl())
            return true;
    } else if (const TypeSourceInfo *TSI = Friend->getFriendType()) {
      const CXXRecordDecl *FriendClass =
          TSI->getType()->getAsCXXRecordDecl();
      for (const DeclContext *DC = F; FriendClass && DC; DC = DC->getParent())
        if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
          if (RD->getCanonicalDecl() == FriendClass->getCanonicalDecl())
            return true;
    }
  }
  return false;
}

bool isNestedBufferField(const FieldDecl *FD) {
  return FD && !isBufferField(FD) && !isBufferContainerField(FD) &&
         !FD->getType()->isReferenceType() &&
         !FD->getType()->isPointerType() && holdsBuffers(FD->getType());
}

bool isThisObject(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(E);
}

namespace {
struct Reach : RecursiveASTVisitor<Reach> {
  std::vector<FieldPath> Paths;
  std::set<FieldPath> Seen;
  std::set<const FunctionDecl *> Visited;
  /// Inner links of a path already taken whole (`this->grid_` in
  /// `this->grid_.cur`): the visitor meets the outer member first.
  std::set<const MemberExpr *> Inner;

  void path(const FieldPath &P) {
    if (Seen.insert(P).second)
      Paths.push_back(P);
  }
  void method(const CXXMethodDecl *M, bool Virtual) {
    const FunctionDecl *Def = M->getDefinition();
    // What Ferry cannot read may touch any buffer of the object.
    if (!Def || !Def->hasBody() || Virtual) {
      for (const FieldPath &P : bufferPathsOf(M->getParent()))
        path(P);
      return;
    }
    if (!Visited.insert(Def).second)
      return;
    TraverseStmt(Def->getBody());
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (Inner.count(ME))
      return true;
    FieldPath P;
    const Expr *Root = memberPathRoot(ME, P);
    if (!Root || !isThisObject(Root))
      return true;
    pathLinks(ME, Inner);
    const FieldDecl *Last = P.back();
    if (isBufferField(Last) || isBufferContainerField(Last))
      path(P);
    else if (isNestedBufferField(Last)) // the member whole: `sweep(cc, grid_)`
      for (const FieldPath &Leaf : [&] {
             std::vector<FieldPath> Leaves;
             bufferLeaves(P, Leaves);
             return Leaves;
           }())
        path(Leaf);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *M = Call->getMethodDecl();
    if (M && !M->isStatic() && Call->getImplicitObjectArgument() &&
        isThisObject(Call->getImplicitObjectArgument()))
      method(M, M->isVirtual() && !M->hasAttr<FinalAttr>() &&
                    !M->getParent()->hasAttr<FinalAttr>());
    return true;
  }
};
} // namespace

std::vector<FieldPath> bufferPathsReached(const CXXMethodDecl *M,
                                          bool Virtual) {
  Reach R;
  if (M && !M->isStatic())
    R.method(M, Virtual);
  return R.Paths;
}

bool memberCallTarget(const CallExpr *Call, MemberCallTarget &Out) {
  // (A lambda called is its captures' business: HostEventCalls'
  // capturedBuffers.)
  auto [M, Object, Qualified] = methodCallOf(Call);
  if (!M || M->isStatic() || !Object)
    return false;
  // Buffers' and library classes' own methods are not the class's buffers.
  const CXXRecordDecl *RD = M->getParent();
  if (!RD || RD->isInStdNamespace() ||
      isBufferType(QualType(RD->getTypeForDecl(), 0)))
    return false;
  Out = MemberCallTarget();
  Out.Method = M;
  Out.Object = Object;
  Out.Virtual = mayRunOverride(M, Object, Qualified);
  if (isThisObject(Object)) {
    Out.OnThis = true;
    return true;
  }
  const Expr *E = Object->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl>(DRE->getDecl())) {
      Out.Variable = DRE->getDecl();
      return true;
    }
  return true; // a method on something else: Variable stays null
}

} // namespace ferry
