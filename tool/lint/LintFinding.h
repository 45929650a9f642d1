#pragma once
// What the lints find, as plain data, and how it is reported: through
// Clang's diagnostics engine like every other Ferry diagnostic, so each
// prints as `file:line:col: warning: ...` with its notes after it.
//
// A user silences one site the way clang-tidy users do: `// NOLINT` or
// `// NOLINT(ferry-race)` on the line of the warning, or
// `// NOLINTNEXTLINE(ferry-race)` on the line before it.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace ferry {

struct LintNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct LintFinding {
  enum class Check {
    RacingWrite,      ///< every work-item writes one buffer element
    MissingBarrier,   ///< a local element read after another item wrote it
    WriteOnlyCoverage, ///< a FERRY_WO buffer the dispatch covers in part
    MissingLocal,     ///< an error: work-group features without `.local`
  };
  Check Kind;
  clang::SourceLocation Loc;
  std::string Message;
  std::vector<LintNote> Notes;

  bool isError() const { return Kind == Check::MissingLocal; }
};

/// Reports every finding in source order: errors always, warnings unless
/// `Warnings` is false or the site says NOLINT.
void reportFindings(clang::ASTContext &Ctx, std::vector<LintFinding> Findings,
                    bool Warnings);

/// `out[kc.x] = v * 2.0f` as written, on one line and shortened when long:
/// how a diagnostic names the access it is about.
std::string lintExpressionText(clang::ASTContext &Ctx, const clang::Expr *E);

} // namespace ferry
