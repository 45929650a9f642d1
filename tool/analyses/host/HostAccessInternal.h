#pragma once
// Small tests shared by the files of analyses/host/ that read host code (the
// event walker's, CountedHostWrites.cpp, ...); internal to analyses/.

#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace ferry {

/// `b.Name(…)` on a ferry::Buffer.
inline bool isBufferMethod(const clang::CXXMemberCallExpr *MC,
                           llvm::StringRef Name) {
  return MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
         MC->getMethodDecl()->getName() == Name &&
         isBufferType(MC->getImplicitObjectArgument()->getType());
}

/// F is declared in a system header (the standard library's, say).
inline bool inSystemHeader(const clang::FunctionDecl *F) {
  const clang::SourceManager &SM = F->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation()));
}

} // namespace ferry
