// Whether a declaration makes its buffers anew: the keep analysis starts
// such a buffer new (no device copy to keep), not written.

#include "analyses/lifetime/MadeFresh.h"
#include "analyses/CallGraphs.h"
#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace ferry {

/// A declaration that makes the buffer anew (`Buffer<T> b(n)`, `b(n, v)`,
/// `b{1, 2}`), not from another buffer's contents.
bool bufferMadeFresh(const VarDecl *V) {
  const auto *Init = V->getInit();
  const auto *Construct =
      Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
  if (!Construct || Construct->getConstructor()->isCopyOrMoveConstructor())
    return false;
  for (const Expr *Arg : Construct->arguments())
    if (holdsBuffers(Arg->getType()))
      return false;
  return true;
}

static bool freshConstructor(const CXXConstructorDecl *Def, int Depth,
                             const FreshElsewhere &Elsewhere);
static bool freshConstruction(const Expr *E, int Depth,
                              const FreshElsewhere &Elsewhere);

/// A member no constructor initialiser names makes its buffers anew: by its
/// default initialiser, or default-constructed (a buffer or a standard
/// container starts empty; a class of the user's by its default
/// constructor, the compiler's or one whose body Ferry sees or another
/// file's summary vouches for).
static bool memberFresh(const FieldDecl *FD, int Depth,
                        const FreshElsewhere &Elsewhere) {
  if (!holdsBuffers(FD->getType()))
    return true;
  if (FD->hasInClassInitializer())
    return freshConstruction(FD->getInClassInitializer(), Depth + 1, Elsewhere);
  QualType T = FD->getType().getCanonicalType();
  while (const auto *A = T->getAsArrayTypeUnsafe())
    T = A->getElementType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (isBufferType(T) || (RD && RD->isInStdNamespace()))
    return true;
  if (!RD || !RD->hasDefinition() || RD->getNumBases() != 0 || Depth > 4)
    return false;
  for (const CXXConstructorDecl *C : RD->ctors())
    if (C->isDefaultConstructor() && C->isUserProvided()) {
      const auto *Def = dyn_cast_or_null<CXXConstructorDecl>(C->getDefinition());
      return Def ? freshConstructor(Def, Depth + 1, Elsewhere)
                 : Elsewhere && Elsewhere(C);
    }
  for (const FieldDecl *Inner : RD->fields())
    if (!memberFresh(Inner, Depth + 1, Elsewhere))
      return false;
  return true;
}

/// Whether E, a declaration's initialiser, makes every buffer it holds
/// anew; Depth bounds the recursion into members' initialisers.
static bool freshConstruction(const Expr *E, int Depth,
                              const FreshElsewhere &Elsewhere) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (isa<ImplicitValueInitExpr>(E))
    return true;
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
    return freshConstruction(Default->getExpr(), Depth + 1, Elsewhere);
  // `ferry::Buffer<float>(64)`: a constructor call spelled as a cast;
  // `Two{Buffer<float>(8), …}`: an aggregate's list spelled as one.
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E);
      Cast && (Cast->getCastKind() == CK_ConstructorConversion ||
               Cast->getCastKind() == CK_NoOp))
    return freshConstruction(Cast->getSubExpr(), Depth + 1, Elsewhere);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : IL->inits())
      if (holdsBuffers(Init->getType()) &&
          !freshConstruction(Init, Depth + 1, Elsewhere))
        return false;
    return true;
  }
  const auto *Construct = dyn_cast<CXXConstructExpr>(E);
  if (!Construct || Construct->getConstructor()->isCopyOrMoveConstructor())
    return false;
  for (const Expr *Arg : Construct->arguments())
    if (holdsBuffers(Arg->getType()))
      return false;
  if (isBufferType(Construct->getType()))
    return true;
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  const CXXRecordDecl *RD = Ctor->getParent();
  if (Ctor->getASTContext().getSourceManager().isInSystemHeader(
          Ctor->getLocation()) ||
      RD->getNumBases() != 0)
    return false;
  if (Ctor->isImplicit() || Ctor->isDefaulted()) {
    // Each member default-constructed or from its default initialiser.
    for (const FieldDecl *FD : RD->fields())
      if (!memberFresh(FD, Depth, Elsewhere))
        return false;
    return true;
  }
  const auto *Def = dyn_cast_or_null<CXXConstructorDecl>(
      Ctor->getDefinition());
  if (!Def)
    return Elsewhere && Elsewhere(Ctor);
  return freshConstructor(Def, Depth, Elsewhere);
}

/// Def makes each buffer member anew (by its initialisers, or the members'
/// default ones) and calls nothing but the runtime.
static bool freshConstructor(const CXXConstructorDecl *Def, int Depth,
                             const FreshElsewhere &Elsewhere) {
  const CXXRecordDecl *RD = Def->getParent();
  std::set<const FieldDecl *> Initialised;
  for (const CXXCtorInitializer *Init : Def->inits()) {
    const FieldDecl *FD = Init->getMember();
    if (!FD)
      return false; // a base or a delegated constructor
    Initialised.insert(FD);
    if (holdsBuffers(FD->getType()) &&
        !freshConstruction(Init->getInit(), Depth + 1, Elsewhere))
      return false;
  }
  for (const FieldDecl *FD : RD->fields())
    if (!Initialised.count(FD) && !memberFresh(FD, Depth, Elsewhere))
      return false;
  // Nothing but the runtime, and not a buffer given another's contents
  // (`a = std::move(pool)`, `Buffer<float> b(pool)`: a device copy may come
  // with them).
  struct Calls : RecursiveASTVisitor<Calls> {
    bool Foreign = false;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      Foreign = Foreign || !F || !isRuntimeFunction(F);
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
          Op && Op->getOperator() == OO_Equal)
        Foreign = true;
      return !Foreign;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      if (C->getConstructor()->isCopyOrMoveConstructor())
        for (const Expr *Arg : C->arguments())
          Foreign = Foreign || holdsBuffers(Arg->getType().getNonReferenceType()) ||
                    isBufferType(Arg->getType().getNonReferenceType());
      return !Foreign;
    }
    bool VisitLambdaExpr(LambdaExpr *) { return !(Foreign = true); }
  } Find;
  Find.TraverseStmt(Def->getBody());
  return !Find.Foreign;
}

/// A local object whose buffers are all made anew by its declaration:
/// an aggregate of fresh buffers, or a constructor of the user's that
/// makes each buffer member anew and calls nothing but the runtime (which
/// could run a compute on them, or hand them another buffer's contents).
bool objectMadeFresh(const VarDecl *V, const FreshElsewhere &Elsewhere) {
  return V->getInit() && freshConstruction(V->getInit(), 0, Elsewhere);
}

bool constructorMakesFresh(const CXXConstructorDecl *Def) {
  return Def->getParent()->getNumBases() == 0 &&
         freshConstructor(Def, 0, nullptr);
}

} // namespace ferry
