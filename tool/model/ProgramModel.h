#pragma once
// What the parse stage finds in a translation unit: the kernels and compute
// functions, as plain declarations. Later stages add facts about them.

#include "clang/AST/Decl.h"

#include <vector>

namespace ferry {

/// Access a kernel parameter is annotated with (FERRY_RO / FERRY_WO / FERRY_RW).
enum class DeclaredAccess { None, ReadOnly, WriteOnly, ReadWrite };

struct ProgramModel {
  /// FERRY_KERNEL functions defined in the TU, in source order.
  std::vector<const clang::FunctionDecl *> Kernels;
  /// FERRY_COMPUTE functions defined in the TU, in source order.
  std::vector<const clang::FunctionDecl *> ComputeFunctions;
  /// Call operators of the lambdas given to `acc.compute(...)` in the main
  /// file, in source order.
  std::vector<const clang::FunctionDecl *> ComputeLambdas;
};

} // namespace ferry
