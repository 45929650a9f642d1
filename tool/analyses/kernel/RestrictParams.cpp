#include "analyses/kernel/RestrictParams.h"

#include "analyses/kernel/KernelDispatches.h"

using namespace clang;

namespace ferry {

bool RestrictParams::isRestrict(const FunctionDecl *Kernel,
                                unsigned Index) const {
  auto It = Kernels.find(Kernel->getCanonicalDecl());
  return It != Kernels.end() && It->second.count(Index);
}

RestrictParams analyzeRestrictParams(ArrayRef<const FunctionDecl *> Kernels,
                                     const KernelDispatches &Dispatches) {
  RestrictParams Result;
  for (const FunctionDecl *K : Kernels) {
    // A buffer parameter is a pointer to data (a local span is a class,
    // the context and scalars are not pointers).
    std::vector<const ParmVarDecl *> Buffers;
    for (const ParmVarDecl *P : K->parameters())
      if (P->getType()->isPointerType() &&
          !P->getType()->getPointeeType()->isPointerType())
        Buffers.push_back(P);
    std::set<unsigned> &Restrict = Result.Kernels[K->getCanonicalDecl()];
    for (const ParmVarDecl *P : Buffers) {
      bool Alone = true;
      for (const ParmVarDecl *Q : Buffers)
        if (Q != P && !Dispatches.mayBeOneBuffer(K, P, Q).empty())
          Alone = false;
      if (Alone)
        Restrict.insert(P->getFunctionScopeIndex());
    }
  }
  return Result;
}

} // namespace ferry
