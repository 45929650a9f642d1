#pragma once
// Small pieces shared by the files of the element ranges (ElementRanges.cpp,
// ElementRangeSpelling.cpp, ElementRangeInvariance.cpp,
// ElementRangePointers.cpp, RangeTexts.cpp); internal to analyses/host/.

#include "analyses/host/RangeTexts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <string>

namespace ferry::element_ranges {

/// A as an operand of `+` or `-`: on the left a sum reads as it is; on the
/// right it needs parentheses (`a - (b + c)`). RangeTexts.cpp.
std::string operand(const RangeText &A, bool Right);
/// A as a whole term: parenthesised unless it is one. RangeTexts.cpp.
std::string primary(const RangeText &A);

/// How tightly E's text binds. ElementRangeSpelling.cpp, as the three below.
RangeText::Binding bindingOf(const clang::Expr *E);
/// S names V.
bool namesVar(const clang::Stmt *S, const clang::VarDecl *V);
/// Every location in S is in a file, none in a macro: its source text is
/// what it means.
bool spelledInFile(const clang::Stmt *S);
/// An integer conversion that keeps every value (int -> long, not long ->
/// int): a counter seen through it still steps by one.
bool widening(const clang::CastExpr *C, const clang::ASTContext &Ctx);

/// S may change V (LoopShape's changes()), except through a dispatch:
/// cc.dispatch takes its arguments by forwarding reference, but a kernel
/// gets its scalars by value, so only what an argument's own expression
/// does counts. ElementRangeInvariance.cpp.
bool changedWithin(const clang::Stmt *S, const clang::VarDecl *V);

} // namespace ferry::element_ranges
