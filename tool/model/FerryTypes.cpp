#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace clang;

namespace ferry {

static const CXXRecordDecl *ferryRecord(QualType T, llvm::StringRef Name) {
  if (T.isNull())
    return nullptr;
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  if (!RD || RD->getName() != Name)
    return nullptr;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  if (!NS || NS->getName() != "ferry" ||
      !NS->getParent()->getRedeclContext()->isTranslationUnit())
    return nullptr;
  return RD;
}

bool isBufferType(QualType T) { return ferryRecord(T, "Buffer") != nullptr; }

QualType bufferElementType(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      ferryRecord(T, "Buffer"));
  if (!Spec || Spec->getTemplateArgs().size() < 1)
    return {};
  return Spec->getTemplateArgs()[0].getAsType();
}

bool refersToBuffer(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (const auto *P = T->getAs<PointerType>())
    T = P->getPointeeType();
  return isBufferType(T);
}

static bool holdsBuffers(QualType T, int Depth) {
  T = T.getNonReferenceType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType()
                           : QualType(T->getPointeeOrArrayElementType(), 0);
  if (isBufferType(T))
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Depth > 4)
    return false;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type &&
          holdsBuffers(A.getAsType(), Depth + 1))
        return true;
  for (const FieldDecl *FD : RD->fields())
    if (holdsBuffers(FD->getType(), Depth + 1))
      return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (holdsBuffers(B.getType(), Depth + 1))
      return true;
  return false;
}

bool holdsBuffers(QualType T) { return !T.isNull() && holdsBuffers(T, 0); }

static void heldElements(QualType T, int Depth, std::set<QualType> &Out) {
  T = T.getNonReferenceType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType()
                           : QualType(T->getPointeeOrArrayElementType(), 0);
  if (isBufferType(T)) {
    Out.insert(bufferElementType(T).getCanonicalType().getUnqualifiedType());
    return;
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Depth > 4)
    return;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        heldElements(A.getAsType(), Depth + 1, Out);
  for (const FieldDecl *FD : RD->fields())
    heldElements(FD->getType(), Depth + 1, Out);
  for (const CXXBaseSpecifier &B : RD->bases())
    heldElements(B.getType(), Depth + 1, Out);
}

QualType heldBufferElement(QualType T) {
  std::set<QualType> Elements;
  if (!T.isNull())
    heldElements(T, 0, Elements);
  return Elements.size() == 1 ? *Elements.begin() : QualType();
}

bool inFerryRuntime(const Decl *D) {
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C))
      if (NS->getName() == "ferry" &&
          NS->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
  return false;
}

std::vector<QualType> heldBufferElements(QualType T) {
  std::set<QualType> Elements;
  if (!T.isNull())
    heldElements(T, 0, Elements);
  // In the order of their spellings: the set's is the types' addresses'.
  std::vector<QualType> Out(Elements.begin(), Elements.end());
  llvm::sort(Out, [](QualType A, QualType B) {
    return elementSpelling(A) < elementSpelling(B);
  });
  return Out;
}

std::string elementSpelling(QualType Elem) {
  return Elem.getCanonicalType().getUnqualifiedType().getAsString();
}

QualType elementNamed(ASTContext &Ctx, llvm::StringRef Spelling) {
  for (QualType T : {Ctx.BoolTy, Ctx.CharTy, Ctx.SignedCharTy,
                     Ctx.UnsignedCharTy, Ctx.ShortTy, Ctx.UnsignedShortTy,
                     Ctx.IntTy, Ctx.UnsignedIntTy, Ctx.LongTy,
                     Ctx.UnsignedLongTy, Ctx.LongLongTy, Ctx.UnsignedLongLongTy,
                     Ctx.FloatTy, Ctx.DoubleTy, Ctx.LongDoubleTy})
    if (elementSpelling(T) == Spelling)
      return T;
  // The element types of the unit's buffers: `ferry::Buffer`'s
  // specializations.
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *NS = dyn_cast<NamespaceDecl>(D);
    if (!NS || NS->getName() != "ferry")
      continue;
    for (const NamedDecl *Found : NS->lookup(&Ctx.Idents.get("Buffer")))
      if (const auto *Template = dyn_cast<ClassTemplateDecl>(Found))
        for (const ClassTemplateSpecializationDecl *S :
             Template->specializations())
          if (S->getTemplateArgs().size() > 0 &&
              S->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
              elementSpelling(S->getTemplateArgs()[0].getAsType()) == Spelling)
            return S->getTemplateArgs()[0].getAsType();
  }
  return QualType();
}

bool isComputeContextType(QualType T) {
  return ferryRecord(T.getNonReferenceType(), "ComputeContext") != nullptr;
}

bool isLocalArrayType(QualType T) {
  return ferryRecord(T.getNonReferenceType(), "Local") != nullptr;
}

bool isLocalSpanType(QualType T) {
  return ferryRecord(T.getNonReferenceType(), "LocalSpan") != nullptr;
}

bool isVectorType(QualType T) {
  return ferryRecord(T.getNonReferenceType(), "Vec") != nullptr;
}

std::pair<QualType, unsigned> vectorShape(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      ferryRecord(T.getNonReferenceType(), "Vec"));
  if (!Spec || Spec->getTemplateArgs().size() < 2)
    return {QualType(), 0};
  return {Spec->getTemplateArgs()[0].getAsType(),
          unsigned(Spec->getTemplateArgs()[1].getAsIntegral().getZExtValue())};
}

bool isReducerType(QualType T) {
  return ferryRecord(T.getNonReferenceType(), "Reducer") != nullptr;
}

ReducerKind reducerKind(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      ferryRecord(T.getNonReferenceType(), "Reducer"));
  if (!Spec || Spec->getTemplateArgs().size() < 2)
    return {};
  ReducerKind K;
  K.Element = Spec->getTemplateArgs()[0].getAsType();
  if (const auto *Op = Spec->getTemplateArgs()[1].getAsType()->getAsCXXRecordDecl())
    K.Operation = Op->getName().str();
  return K;
}

bool isKernelContextType(QualType T) {
  return ferryRecord(T.getNonReferenceType(), "KernelContext") != nullptr;
}

llvm::StringRef contextFieldMeaning(llvm::StringRef Field) {
  for (llvm::StringRef Wide : {"x64", "y64", "z64", "maxX64", "maxY64",
                               "maxZ64"})
    if (Field == Wide)
      return Field.drop_back(2);
  return Field;
}

bool isDispatchCall(const CallExpr *Call) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Call);
  if (!MC)
    return false;
  const CXXMethodDecl *M = MC->getMethodDecl();
  return M && M->getIdentifier() && M->getName() == "dispatch" &&
         ferryRecord(QualType(M->getParent()->getTypeForDecl(), 0),
                     "ComputeContext");
}

bool isAcceleratorCompute(const CallExpr *Call) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Call);
  if (!MC)
    return false;
  const CXXMethodDecl *M = MC->getMethodDecl();
  return M && M->getIdentifier() && M->getName() == "compute" &&
         ferryRecord(QualType(M->getParent()->getTypeForDecl(), 0),
                     "Accelerator");
}

const FunctionDecl *dispatchedKernel(const CallExpr *Dispatch) {
  std::vector<const FunctionDecl *> Kernels = dispatchedKernels(Dispatch);
  return Kernels.size() == 1 ? Kernels.front() : nullptr;
}

/// Adds the kernels E may evaluate to; false when Ferry cannot tell.
static bool kernelsOf(const Expr *E, std::vector<const FunctionDecl *> &Out,
                      int Depth) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return kernelsOf(C->getTrueExpr(), Out, Depth + 1) &&
           kernelsOf(C->getFalseExpr(), Out, Depth + 1);
  if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Base = dyn_cast<DeclRefExpr>(S->getBase()->IgnoreParenImpCasts());
    const auto *Array = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    const auto *AT = Array ? Array->getType()->getAsArrayTypeUnsafe() : nullptr;
    const auto *Init = Array ? dyn_cast_or_null<InitListExpr>(Array->getInit())
                             : nullptr;
    if (!AT || !AT->getElementType().isConstQualified() || !Init ||
        Init->getNumInits() == 0)
      return false;
    for (const Expr *Element : Init->inits())
      if (!kernelsOf(Element, Out, Depth + 1))
        return false;
    return true;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return false;
  if (const auto *F = dyn_cast<FunctionDecl>(DRE->getDecl())) {
    if (llvm::find(Out, F) == Out.end())
      Out.push_back(F);
    return true;
  }
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  return V && V->getType().isConstQualified() && V->getInit() &&
         kernelsOf(V->getInit(), Out, Depth + 1);
}

std::vector<const FunctionDecl *> dispatchedKernels(const CallExpr *Dispatch) {
  std::vector<const FunctionDecl *> Out;
  if (Dispatch->getNumArgs() < 1 || !kernelsOf(Dispatch->getArg(0), Out, 0))
    return {};
  return Out;
}

} // namespace ferry
