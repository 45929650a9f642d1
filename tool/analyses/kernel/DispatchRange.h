#pragma once
// What a dispatch's range argument says where it is written in the call:
// `ferry::Range(n)`, `ferry::Range(nx, ny)`, with or without `.local(...)`.
// A range held in a variable, or built by a function, is not visible.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace ferry {

struct DispatchRange {
  /// The argument as written.
  const clang::Expr *Argument = nullptr;
  /// Written in the call as ferry::Range(...) (and perhaps .local(...)).
  bool Visible = false;
  int Dims = 0;
  const clang::Expr *Global[3] = {nullptr, nullptr, nullptr};
  bool HasLocal = false;
  const clang::Expr *Local[3] = {nullptr, nullptr, nullptr};

  /// The global size in dimension D when it is a constant.
  std::optional<long long> globalConstant(const clang::ASTContext &Ctx,
                                          int D) const;
  /// Visibly one work-item in all (`ferry::Range(1)`).
  bool singleItem(const clang::ASTContext &Ctx) const;
  /// Visibly one work-item per group (`.local(1)`).
  bool singleItemGroups(const clang::ASTContext &Ctx) const;
};

/// The range of `cc.dispatch(kernel, range, ...)`.
DispatchRange dispatchRange(const clang::CallExpr *Dispatch);

/// E's value when it is an integer constant expression.
std::optional<long long> integerConstant(const clang::ASTContext &Ctx,
                                         const clang::Expr *E);

} // namespace ferry
