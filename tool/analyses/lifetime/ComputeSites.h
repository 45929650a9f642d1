#pragma once
// Where computes start: each `acc.compute([&](ferry::ComputeContext &cc) {
// … })` of the translation unit, with the lambda it runs and the function
// it sits in, and what such a lambda calls when its whole body is one call.
// Shared by the analyses of what happens around a compute
// (ExitLiveness.h: what no one uses after it; KeptBetweenComputes.h: what
// the host left alone before it).

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <vector>

namespace ferry {

struct ComputeSite {
  /// `acc.compute(…)`, an Accelerator::compute call with one argument.
  const clang::CallExpr *Compute = nullptr;
  /// The lambda written as that argument.
  const clang::LambdaExpr *Lambda = nullptr;
  /// The named function the call is in (also for a call inside a lambda
  /// there, which runs whenever that lambda does).
  const clang::FunctionDecl *Enclosing = nullptr;
};

/// Every compute call of the translation unit whose argument is a lambda,
/// in source order.
std::vector<ComputeSite> findComputeSites(clang::ASTContext &Ctx);

/// The call a compute lambda's body consists of (`{ step(cc, a, n); }`),
/// or null when its body is anything else.
const clang::CallExpr *singleCallOf(const clang::FunctionDecl *LambdaOperator);

} // namespace ferry
