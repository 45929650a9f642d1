#include "analyses/lifetime/HiddenWriters.h"

#include "model/FerryTypes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace ferry {

bool declaredInSystemHeader(const Decl *D) {
  return D->getASTContext().getSourceManager().isInSystemHeader(
      D->getLocation());
}

bool PointerHolders::holds(QualType T, QualType Elem, int Depth) {
  if (T.isNull() || Depth > 8)
    return false;
  T = T.getCanonicalType();
  if (const auto *R = T->getAs<ReferenceType>())
    return pointsTo(R->getPointeeType(), Elem, Depth);
  if (const auto *P = T->getAs<PointerType>())
    return pointsTo(P->getPointeeType(), Elem, Depth);
  if (T->isMemberPointerType())
    return false;
  if (const auto *A = T->getAsArrayTypeUnsafe())
    return holds(A->getElementType(), Elem, Depth + 1);
  if (T->isFunctionType())
    return true; // std::function<void()>'s argument: a callable
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || isBufferType(T) || inFerryRuntime(RD))
    return false;
  if (RD->isLambda())
    return true;
  // std::any may hold a pointer to anything.
  if (declaredInSystemHeader(RD) && RD->getIdentifier() && RD->getName() == "any")
    return true;
  if (!RD->hasDefinition())
    return true;
  auto [It, New] = Records.try_emplace({RD, Elem.getTypePtr()}, false);
  if (!New)
    return It->second; // (false while in progress: a cycle adds nothing)
  bool Holds = false;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      Holds = Holds || (A.getKind() == TemplateArgument::Type &&
                        holds(A.getAsType(), Elem, Depth + 1));
    // A standard view refers to what its first argument names, as a
    // pointer would: std::span<int>, std::reference_wrapper<int>,
    // std::reference_wrapper<Buffer<int>> (std::ref), a string view.
    llvm::StringRef Name = RD->getName();
    const auto &Args = Spec->getTemplateArgs();
    if (declaredInSystemHeader(RD) && Args.size() > 0 &&
        Args[0].getKind() == TemplateArgument::Type &&
        (Name == "span" || Name == "reference_wrapper" ||
         Name == "basic_string_view" || Name == "shared_ptr" ||
         Name == "unique_ptr" || Name == "weak_ptr"))
      Holds = Holds || pointsTo(Args[0].getAsType(), Elem, Depth + 1);
  }
  // A standard type's own fields point into storage of its own; what it
  // can be given is in its template arguments.
  if (!declaredInSystemHeader(RD)) {
    for (const FieldDecl *FD : RD->fields())
      Holds = Holds || holds(FD->getType(), Elem, Depth + 1);
    for (const CXXBaseSpecifier &B : RD->bases())
      Holds = Holds || holds(B.getType(), Elem, Depth + 1);
  }
  Records[{RD, Elem.getTypePtr()}] = Holds;
  return Holds;
}

bool PointerHolders::pointsTo(QualType P, QualType Elem, int Depth) {
  P = P.getCanonicalType();
  if (P->isPointerType() || P->isReferenceType() || P->isArrayType() ||
      P->isFunctionType())
    return holds(P, Elem, Depth + 1);
  if (isBufferType(P))
    return (ReadOnlyToo || !P.isConstQualified()) &&
           bufferElementType(P).getCanonicalType().getUnqualifiedType() ==
               Elem.getCanonicalType().getUnqualifiedType();
  // An object holding buffers by value (`Model *`, a pointer to a struct
  // or a container of buffers): through it, their elements.
  if (P->isRecordType() && (ReadOnlyToo || !P.isConstQualified()) &&
      holdsBuffers(P)) {
    QualType Held = heldBufferElement(P);
    if (Held.isNull() || Held.getCanonicalType().getUnqualifiedType() ==
                             Elem.getCanonicalType().getUnqualifiedType())
      return true;
  }
  if (P.isConstQualified() && !P->isRecordType() && !ReadOnlyToo)
    return false;
  if (P->isVoidType() || P->isCharType() || P->isStdByteType())
    return true; // may point anywhere
  if (partOf(P.getUnqualifiedType(), Elem, 0))
    return true;
  // A struct of pointers, however it is reached.
  return P->isRecordType() && holds(P.getUnqualifiedType(), Elem, Depth + 1);
}

/// P is Elem, or the type of a part of it (a member of a struct element,
/// an element of an array member).
bool PointerHolders::partOf(QualType P, QualType Elem, int Depth) {
  Elem = Elem.getCanonicalType().getUnqualifiedType();
  if (P.getCanonicalType().getUnqualifiedType() == Elem)
    return true;
  if (Depth > 4)
    return false;
  if (const auto *A = Elem->getAsArrayTypeUnsafe())
    return partOf(P, A->getElementType(), Depth + 1);
  if (const auto *RD = Elem->getAsRecordDecl())
    for (const FieldDecl *FD : RD->fields())
      if (partOf(P, FD->getType(), Depth + 1))
        return true;
  return false;
}

bool HiddenCode::reaches(const FunctionDecl *F) {
  if (!F)
    return true;
  if (F->getBuiltinID() || inFerryRuntime(F))
    return false;
  if (declaredInSystemHeader(F))
    // A standard function runs only what it is given, which the caller
    // names (a lambda or a function), but for a stored callable.
    return F->getOverloadedOperator() == OO_Call;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && M->isVirtual() && !M->hasAttr<FinalAttr>() &&
      !M->getParent()->hasAttr<FinalAttr>())
    return true;
  // A destructor the compiler writes runs its members' and bases' only,
  // whether or not this unit has defined it.
  if (const auto *D = dyn_cast<CXXDestructorDecl>(F);
      D && (D->isImplicit() || D->isDefaulted())) {
    auto [It, New] = Known.try_emplace(D->getCanonicalDecl(), false);
    if (!New)
      return It->second;
    bool Hidden = destroysParts(D->getParent());
    Known[D->getCanonicalDecl()] = Hidden;
    return Hidden;
  }
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || !Def->hasBody())
    return Elsewhere ? Elsewhere(F) : true;
  auto [It, New] = Known.try_emplace(Def, false);
  if (!New)
    return It->second; // (false while in progress: recursion adds nothing)
  bool Hidden = in(Def->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Hidden = Hidden || in(Init->getInit());
  if (const auto *D = dyn_cast<CXXDestructorDecl>(Def))
    Hidden = Hidden || destroysParts(D->getParent());
  Known[Def] = Hidden;
  return Hidden;
}

bool HiddenCode::destroys(QualType T) {
  T = T.getCanonicalType();
  while (const auto *A = T->getAsArrayTypeUnsafe())
    T = A->getElementType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->hasTrivialDestructor() ||
      inFerryRuntime(RD))
    return false;
  if (declaredInSystemHeader(RD)) {
    // What a standard class destroys its arguments name (the elements of a
    // std::vector<Guard>).
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
        if (A.getKind() == TemplateArgument::Type && destroys(A.getAsType()))
          return true;
    return false;
  }
  return reaches(RD->getDestructor());
}

bool HiddenCode::destroysParts(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return true;
  for (const FieldDecl *FD : RD->fields())
    if (!FD->getType()->isReferenceType() && destroys(FD->getType()))
      return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (destroys(B.getType()))
      return true;
  return false;
}

bool HiddenCode::in(const Stmt *S) {
  if (!S)
    return false;
  struct Calls : RecursiveASTVisitor<Calls> {
    HiddenCode *Self;
    bool Hidden = false;
    bool VisitCallExpr(CallExpr *C) {
      if (isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParens()))
        return true;
      Hidden = Hidden || Self->reaches(C->getDirectCallee());
      return !Hidden;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      const CXXConstructorDecl *Ctor = C->getConstructor();
      if (!Ctor->isTrivial() && !declaredInSystemHeader(Ctor))
        Hidden = Hidden || Self->reaches(Ctor);
      return !Hidden;
    }
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      // A function named other than by a call runs wherever it is handed.
      if (const auto *F = dyn_cast<FunctionDecl>(R->getDecl()))
        Hidden = Hidden || Self->reaches(F);
      return !Hidden;
    }
    // Destructors: of a local when its scope ends, of a temporary at the
    // end of its full expression, of what `delete` frees.
    bool VisitVarDecl(VarDecl *V) {
      if (V->hasLocalStorage() && !V->getType()->isReferenceType())
        Hidden = Hidden || Self->destroys(V->getType());
      return !Hidden;
    }
    bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *T) {
      Hidden = Hidden || Self->destroys(T->getType());
      return !Hidden;
    }
    bool VisitCXXDeleteExpr(CXXDeleteExpr *D) {
      Hidden = Hidden || Self->destroys(D->getDestroyedType()) ||
               userAllocation(D->getOperatorDelete());
      return !Hidden;
    }
    bool VisitCXXNewExpr(CXXNewExpr *N) {
      Hidden = Hidden || userAllocation(N->getOperatorNew());
      return !Hidden;
    }
    bool userAllocation(const FunctionDecl *F) {
      return F && !F->isReplaceableGlobalAllocationFunction() &&
             Self->reaches(F);
    }
    // What a call's default argument or a member's default initialiser
    // evaluates, which the traversal does not enter.
    bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
      Hidden = Hidden || Self->in(E->getExpr());
      return !Hidden;
    }
    bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
      Hidden = Hidden || Self->in(E->getExpr());
      return !Hidden;
    }
  } Find;
  Find.Self = this;
  Find.TraverseStmt(const_cast<Stmt *>(S));
  return Find.Hidden;
}

LongLivedPlaces::LongLivedPlaces(ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    LongLivedPlaces *Out;
    const SourceManager *SM;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitVarDecl(VarDecl *V) {
      if (!V->hasGlobalStorage() || SM->isInSystemHeader(V->getLocation()) ||
          inFerryRuntime(V))
        return true;
      Out->Places.push_back(V);
      Out->GlobalBuffers = Out->GlobalBuffers || holdsBuffers(V->getType());
      return true;
    }
    bool VisitFieldDecl(FieldDecl *FD) {
      const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
      if (SM->isInSystemHeader(FD->getLocation()) || inFerryRuntime(FD) ||
          (RD && RD->isLambda()))
        return true;
      Out->Places.push_back(FD);
      return true;
    }
  } Find;
  Find.Out = this;
  Find.SM = &Ctx.getSourceManager();
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());
}

static std::string pointerPlaceSpelling(QualType Elem) {
  return elementSpelling(Elem);
}

static void partSpellings(QualType T, int Depth, std::set<std::string> &Out) {
  if (T.isNull() || Depth > 6 || !Out.insert(pointerPlaceSpelling(T)).second)
    return;
  T = T.getCanonicalType();
  if (const auto *A = T->getAsArrayTypeUnsafe())
    return partSpellings(A->getElementType(), Depth + 1, Out);
  if (const auto *RD = T->getAsCXXRecordDecl(); RD && RD->hasDefinition()) {
    for (const FieldDecl *FD : RD->fields())
      partSpellings(FD->getType(), Depth + 1, Out);
    for (const CXXBaseSpecifier &B : RD->bases())
      partSpellings(B.getType(), Depth + 1, Out);
  }
}

std::vector<std::string> pointerPlaceSpellings(QualType Elem) {
  std::set<std::string> Out;
  partSpellings(Elem, 0, Out);
  return {Out.begin(), Out.end()};
}

PointerPlaceTypes pointerPlaceTypes(ASTContext &Ctx) {
  // The types tried: its buffers' element types, the arithmetic types, and
  // the classes the unit declares outside system headers.
  struct Types : RecursiveASTVisitor<Types> {
    const SourceManager *SM;
    std::vector<QualType> Found;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitClassTemplateSpecializationDecl(ClassTemplateSpecializationDecl *D) {
      QualType T(D->getTypeForDecl(), 0);
      if (isBufferType(T))
        Found.push_back(bufferElementType(T));
      return true;
    }
    bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
      // (Of the runtime's own classes, its vector types: a `ferry::float4 *`
      // reaches the elements of a `Buffer<ferry::float4>`.)
      if (!SM->isInSystemHeader(RD->getLocation()) && !RD->isLambda() &&
          !RD->isDependentContext() &&
          (!inFerryRuntime(RD) || RD->getName() == "Vec"))
        Found.push_back(QualType(RD->getTypeForDecl(), 0));
      return true;
    }
  } Find;
  Find.SM = &Ctx.getSourceManager();
  Find.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (QualType T : {Ctx.BoolTy, Ctx.CharTy, Ctx.SignedCharTy,
                     Ctx.UnsignedCharTy, Ctx.ShortTy, Ctx.UnsignedShortTy,
                     Ctx.IntTy, Ctx.UnsignedIntTy, Ctx.LongTy,
                     Ctx.UnsignedLongTy, Ctx.LongLongTy, Ctx.UnsignedLongLongTy,
                     Ctx.HalfTy, Ctx.FloatTy, Ctx.DoubleTy, Ctx.LongDoubleTy})
    Find.Found.push_back(T);
  // A type no program names: a place that can reach it reaches any.
  QualType Any = Ctx.getBitIntType(/*Unsigned=*/true, 77);

  LongLivedPlaces Places(Ctx);
  PointerPlaceTypes Out;
  Out.GlobalBuffers = Places.GlobalBuffers;
  // A pointer turned into an integer (`reinterpret_cast<uintptr_t>(p)`) may
  // be kept in any integer, and turned back: any type.
  struct Casts : RecursiveASTVisitor<Casts> {
    const SourceManager *SM;
    bool Found = false;
    bool TraverseNamespaceDecl(NamespaceDecl *NS) {
      // (The runtime's own code keeps no buffer's address.)
      if (NS->getName() == "ferry" &&
          NS->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
      return RecursiveASTVisitor<Casts>::TraverseNamespaceDecl(NS);
    }
    bool VisitCastExpr(CastExpr *C) {
      if (C->getCastKind() == CK_PointerToIntegral &&
          !SM->isInSystemHeader(C->getBeginLoc()))
        Found = true;
      return !Found;
    }
  } PointerToInteger;
  PointerToInteger.SM = &Ctx.getSourceManager();
  PointerToInteger.TraverseDecl(Ctx.getTranslationUnitDecl());
  if (PointerToInteger.Found) {
    Out.Writes = Out.Reads = {"*"};
    return Out;
  }
  for (bool ReadsToo : {false, true}) {
    PointerHolders Holders(ReadsToo);
    auto Reached = [&](QualType Elem) {
      for (const ValueDecl *Place : Places.Places)
        if (Holders.holds(Place->getType(), Elem))
          return true;
      return false;
    };
    std::set<std::string> Names;
    if (Reached(Any))
      Names.insert("*");
    else
      for (QualType T : Find.Found)
        if (!T.isNull() && Reached(T))
          Names.insert(pointerPlaceSpelling(T));
    (ReadsToo ? Out.Reads : Out.Writes).assign(Names.begin(), Names.end());
  }
  return Out;
}

} // namespace ferry
