#include "parse/Annotations.h"

#include "model/Diagnostics.h"
#include "model/FerryTypes.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {

static const AnnotateAttr *findAnnotation(const Decl *D, llvm::StringRef Name) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Name)
      return A;
  return nullptr;
}

bool isKernel(const FunctionDecl *F) {
  return F && findAnnotation(F, "ferry.kernel");
}

bool isComputeFunction(const FunctionDecl *F) {
  return F && findAnnotation(F, "ferry.compute");
}

DeclaredAccess declaredAccess(const ParmVarDecl *P) {
  if (findAnnotation(P, "ferry.ro"))
    return DeclaredAccess::ReadOnly;
  if (findAnnotation(P, "ferry.wo"))
    return DeclaredAccess::WriteOnly;
  if (findAnnotation(P, "ferry.rw"))
    return DeclaredAccess::ReadWrite;
  return DeclaredAccess::None;
}

SourceLocation declaredAccessLoc(const ParmVarDecl *P) {
  for (const char *Name : {"ferry.ro", "ferry.wo", "ferry.rw"})
    if (const auto *A = findAnnotation(P, Name))
      return A->getLocation();
  return {};
}

bool rejectExplicitObject(ASTContext &Ctx, const FunctionDecl *F,
                          llvm::StringRef What) {
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  if (!M || !M->isExplicitObjectMemberFunction())
    return false;
  const ParmVarDecl *Self = M->getParamDecl(0);
  reportError(Ctx, Self->getExplicitObjectParamThisLoc(),
              (What + " '" + F->getNameAsString() +
               "' has an explicit object parameter ('this " +
               Self->getType().getAsString() + Self->getName() +
               "'), which Ferry does not support: make it a member "
               "function that reaches its object through 'this'")
                  .str());
  return true;
}

namespace {
class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(ASTContext &Ctx) : Ctx(Ctx) {}
  ProgramModel Model;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->isThisDeclarationADefinition() ||
        Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
      return true;
    if (isKernel(F))
      checkKernel(F);
    else if (isComputeFunction(F))
      checkCompute(F);
    return true;
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (!isAcceleratorCompute(Call) || Call->getNumArgs() != 1 ||
        !SM.isWrittenInMainFile(SM.getExpansionLoc(Call->getBeginLoc())))
      return true;
    if (const auto *L = dyn_cast<LambdaExpr>(Call->getArg(0)->IgnoreImplicit()))
      if (const CXXMethodDecl *Op = L->getCallOperator();
          Op && Op->getNumParams() == 1 &&
          isComputeContextType(Op->getParamDecl(0)->getType()) &&
          Op->getTemplatedKind() == FunctionDecl::TK_NonTemplate)
        Model.ComputeLambdas.push_back(Op);
    return true;
  }

private:
  void checkKernel(FunctionDecl *F) {
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && !M->isStatic()) {
      reportError(Ctx, F->getLocation(),
                  "kernel '" + F->getNameAsString() +
                      "' must be a free function or a static member function");
      return;
    }
    if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate()) {
      // A kernel template: each instantiation the program names (a dispatch
      // of `axpy<float>`, `tile<16>`) is a kernel of its own, named by
      // openclName() as `axpy__float`, `tile__16`. Explicit specializations
      // are definitions of their own, visited as such.
      for (FunctionDecl *Spec : T->specializations()) {
        TemplateSpecializationKind K = Spec->getTemplateSpecializationKind();
        if ((K == TSK_ImplicitInstantiation ||
             K == TSK_ExplicitInstantiationDefinition) &&
            Spec->isThisDeclarationADefinition())
          checkKernel(Spec);
      }
      return;
    }
    if (F->getTemplatedKind() == FunctionDecl::TK_MemberSpecialization ||
        F->getTemplatedKind() == FunctionDecl::TK_DependentNonTemplate ||
        F->isDependentContext()) {
      reportError(Ctx, F->getLocation(),
                  "kernel '" + F->getNameAsString() +
                      "' cannot be a member of a class template; make it a "
                      "function template instead");
      return;
    }
    if (F->getNumParams() == 0 ||
        !isKernelContextType(F->getParamDecl(0)->getType()) ||
        F->getParamDecl(0)->getType()->isReferenceType()) {
      reportError(Ctx, F->getLocation(),
                  "kernel '" + F->getNameAsString() +
                      "' must take 'ferry::KernelContext' by value as its "
                      "first parameter");
      return;
    }
    if (!F->getReturnType()->isVoidType()) {
      reportError(Ctx, F->getLocation(),
                  "kernel '" + F->getNameAsString() + "' must return void");
      return;
    }
    Model.Kernels.push_back(F);
  }

  void checkCompute(FunctionDecl *F) {
    if (rejectExplicitObject(Ctx, F, "compute function"))
      return;
    if (F->getNumParams() == 0 ||
        !isComputeContextType(F->getParamDecl(0)->getType()) ||
        !F->getParamDecl(0)->getType()->isLValueReferenceType()) {
      reportError(Ctx, F->getLocation(),
                  "compute function '" + F->getNameAsString() +
                      "' must take 'ferry::ComputeContext &' as its first "
                      "parameter");
      return;
    }
    Model.ComputeFunctions.push_back(F);
  }

  ASTContext &Ctx;
};
} // namespace

ProgramModel collectProgram(ASTContext &Ctx) {
  Collector C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(C.Model);
}

} // namespace ferry
