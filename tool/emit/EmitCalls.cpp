// Calls: of helpers (with their objects and the address spaces that pick a
// version), of library functions (the built-ins), and what is refused.

#include "emit/Emitter.h"
#include "emit/MathBuiltins.h"
#include "parse/Annotations.h"
#include "analyses/kernel/WorkGroupUse.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ferry {
namespace emit {

std::string Emitter::call(const CallExpr *CE) {
  SourceLocation Loc = CE->getBeginLoc();
  const FunctionDecl *Callee = CE->getDirectCallee();
  // Calling a lambda or function pointer whose declaration was reported.
  auto Poisoned = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && Cur->Poisoned.count(DRE->getDecl());
  };
  if (Poisoned(CE->getCallee()))
    return "0";
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
      Op && Op->getNumArgs() > 0 && Poisoned(Op->getArg(0)))
    return "0";
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      MC && MC->getImplicitObjectArgument() &&
      Poisoned(MC->getImplicitObjectArgument()))
    return "0";
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Callee)) {
      if ((M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()) &&
          M->isTrivial() && Op->getNumArgs() == 2)
        return cat({expr(Op->getArg(0)), " = ", expr(Op->getArg(1))});
      if (inStdNamespace(M->getParent())) {
        recordName(M->getParent(), Loc);
        return "0";
      }
    }
  }
  if (!Callee) {
    error(Loc, "calls through function pointers cannot be translated to "
               "OpenCL C",
          CE->getSourceRange());
    return "0";
  }
  if (std::optional<std::string> S = vectorCall(CE))
    return *S;
  if (std::optional<std::string> S = reducerCall(CE))
    return *S;
  if (std::optional<std::string> S = localMemoryCall(CE))
    return *S;
  if (std::optional<std::string> S = builtinCall(CE, Callee))
    return *S;
  // A member function's object, passed first: by value to a const member
  // function, by pointer to the others.
  const Expr *Object = nullptr;
  bool ObjectIsPointer = false;
  unsigned ArgOffset = 0;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee); M && !M->isStatic()) {
    if (isa<CXXConstructorDecl>(M) || isa<CXXDestructorDecl>(M))
      return cannot(CE);
    if (inStdNamespace(M->getParent())) {
      recordName(M->getParent(), Loc);
      return "0";
    }
    if (M->isVirtual()) {
      error(Loc, "virtual calls cannot be translated to OpenCL C",
            CE->getSourceRange());
      return "0";
    }
    if (isa<LambdaExpr>(CE->getCallee()->IgnoreImplicit()) ||
        M->getParent()->isLambda()) {
      error(Loc, "lambdas cannot be translated to OpenCL C; use a helper "
                 "function",
            CE->getSourceRange());
      return "0";
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      Object = MC->getImplicitObjectArgument();
      if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
        ObjectIsPointer = ME->isArrow();
    } else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() > 0) {
      Object = CE->getArg(0);
      ArgOffset = 1;
    }
    if (!Object)
      return cannot(CE);
    if (!M->isConst() && !ObjectIsPointer && !Object->isLValue()) {
      error(Loc, "Ferry cannot translate a call of the non-const member "
                 "function '" + M->getQualifiedNameAsString() +
                     "' on a temporary to OpenCL C",
            CE->getSourceRange());
      return "0";
    }
  }
  if (isAllocationFunction(Callee)) {
    error(Loc, "dynamic memory ('" + Callee->getNameAsString() +
                   "') cannot be used in OpenCL C",
          CE->getSourceRange());
    return "0";
  }
  const FunctionDecl *Def = Callee->getDefinition();
  bool System = SM.isInSystemHeader(Callee->getLocation());
  if (System || !Def || !Def->hasBody()) {
    if (auto B = lookupMathBuiltin(Callee))
      return mathCall(CE, Callee, *B);
    // std::numeric_limits<float>::max() and other constant library calls.
    if (std::string V = constant(CE); !V.empty())
      return V;
    if (System)
      error(Loc, "'" + Callee->getQualifiedNameAsString() +
                     "' is not available in OpenCL C (Ferry translates "
                     "functions defined in the program and the <cmath> "
                     "functions OpenCL C has)",
            CE->getSourceRange());
    else
      error(Loc, "'" + Callee->getQualifiedNameAsString() +
                     "' has no body in this translation unit; Ferry can only "
                     "translate functions it can see",
            CE->getSourceRange());
    return "0";
  }
  if (isKernel(Def)) {
    error(Loc, "kernels cannot be called from device code",
          CE->getSourceRange());
    return "0";
  }
  if (Def->isVariadic()) {
    error(Loc, "variadic functions cannot be translated to OpenCL C");
    return "0";
  }
  for (const Frame &Fr : Stack)
    if (Fr.F == Def) {
      error(Loc, "recursion ('" + Def->getQualifiedNameAsString() +
                     "' calls itself, directly or through other functions) "
                     "cannot be translated to OpenCL C",
            CE->getSourceRange());
      return "0";
    }
  std::vector<std::string> Args;
  std::vector<Space> Spaces;
  std::vector<std::string> Seps;
  // The address of an lvalue argument, for a pointer parameter.
  auto AddressOf = [&](const Expr *A) -> std::string {
    if (const VarInfo *VI = varInfo(A); VI && VI->RefPointer)
      return VI->Name;
    if (const auto *U = dyn_cast<UnaryOperator>(A->IgnoreParens());
        U && U->getOpcode() == UO_Deref)
      return expr(U->getSubExpr());
    return "&" + postfixBase(A);
  };
  if (Object) {
    bool ThisByValue = Cur->This == FunctionState::ThisMode::Value &&
                       isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
    if (cast<CXXMethodDecl>(Def)->isConst()) {
      if (ThisByValue)
        Args.push_back("self");
      else
        Args.push_back(ObjectIsPointer ? "*" + operand(Object)
                                       : expr(Object->IgnoreParens()));
    } else if (ObjectIsPointer) {
      Args.push_back(expr(Object));
      Spaces.push_back(pointerSpace(Object));
    } else {
      Spaces.push_back(objectSpace(Object));
      Args.push_back(AddressOf(Object));
    }
    if (CE->getNumArgs() > ArgOffset)
      Seps.push_back(", ");
  }
  for (unsigned I = ArgOffset + 1; I < CE->getNumArgs(); ++I)
    Seps.push_back("," + gap(CE->getArg(I - 1)->getEndLoc(),
                             CE->getArg(I)->getBeginLoc()));
  for (unsigned I = 0;
       I + ArgOffset < CE->getNumArgs() && I < Def->getNumParams(); ++I) {
    QualType PT = Def->getParamDecl(I)->getType();
    const Expr *A = CE->getArg(I + ArgOffset);
    if (PT->isPointerType()) {
      Args.push_back(expr(A));
      Spaces.push_back(pointerSpace(A));
    } else if (isLocalSpanType(PT)) {
      // A LocalSpan handed on: its pointer and its element count.
      const Expr *Span = A->IgnoreImplicit();
      if (const auto *Copy = dyn_cast<CXXConstructExpr>(Span);
          Copy && Copy->getNumArgs() == 1)
        Span = Copy->getArg(0);
      const VarInfo *VI = varInfo(Span);
      if (!VI || !VI->LocalMemory || VI->SizeName.empty()) {
        error(A->getBeginLoc(), "Ferry can hand on a ferry::LocalSpan only "
                                "by its name");
        Args.push_back("0");
        continue;
      }
      Cur->UsedSizes.insert(VI->SizeName);
      Args.push_back(VI->Name + ", " + VI->SizeName);
    } else if (PT->isLValueReferenceType() &&
               !PT.getNonReferenceType().isConstQualified()) {
      Spaces.push_back(objectSpace(A));
      Args.push_back(AddressOf(A));
    } else {
      Args.push_back(expr(A));
    }
  }
  const Version &V = requestVersion(Def, Spaces, CE);
  CallReturnSpaces[CE] = V.ReturnSpace;
  Cur->Callees.insert(V.Index);
  const std::string &Name = V.Name;
  std::string S = Name + "(";
  for (size_t I = 0; I < Args.size(); ++I)
    S += (I ? Seps[I - 1] : "") + Args[I];
  // The local arrays the helper declares, from this function's own.
  for (const VarDecl *D : V.HiddenLocals)
    S += (S.back() == '(' ? "" : ", ") + localSlot(D);
  return S + ")";
}

} // namespace emit
} // namespace ferry
