#include "analyses/kernel/BarrierFences.h"

#include "analyses/Access.h"
#include "analyses/CallGraphs.h"
#include "analyses/kernel/KernelAccess.h"
#include "analyses/kernel/KernelDispatches.h"
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

KernelFence decide(const FunctionDecl *K, const ReachableGraph &G,
                   FunctionAccessCache &Cache,
                   const KernelDispatches &Dispatches) {
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
      std::string Why = Dispatches.mayBeOneBuffer(K, W, R);
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
  KernelDispatches Dispatches(Ctx);
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
