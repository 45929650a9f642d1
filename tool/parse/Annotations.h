#pragma once
// How Ferry recognises its annotations: <ferry/ferry.hpp> expands FERRY_KERNEL,
// FERRY_COMPUTE, FERRY_RO, FERRY_WO and FERRY_RW to Clang `annotate` attributes.

#include "model/ProgramModel.h"

#include "clang/AST/ASTContext.h"

namespace ferry {

bool isKernel(const clang::FunctionDecl *F);
bool isComputeFunction(const clang::FunctionDecl *F);
DeclaredAccess declaredAccess(const clang::ParmVarDecl *P);
/// Where the annotation sits, for diagnostics; invalid when unannotated.
clang::SourceLocation declaredAccessLoc(const clang::ParmVarDecl *P);

/// Reports F, a member function with an explicit object parameter (C++23,
/// `void step(this Body &self, ferry::ComputeContext &cc)`), as `What`
/// Ferry does not support, and returns true; false for any other function.
bool rejectExplicitObject(clang::ASTContext &Ctx, const clang::FunctionDecl *F,
                          llvm::StringRef What);

/// Collects the kernels and compute functions defined in the main file and
/// the headers it includes (not system headers). Reports misuse (a kernel
/// without a KernelContext first parameter, a compute function without a
/// ComputeContext& one) as errors.
ProgramModel collectProgram(clang::ASTContext &Ctx);

} // namespace ferry
