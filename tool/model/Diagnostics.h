#pragma once
// Every error Ferry reports goes through Clang's DiagnosticsEngine, so it
// prints as `file:line:col: error: ...` with the source line and a caret.

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"

namespace ferry {

/// Reports `Message` as an error at `Loc`. `%0`-style placeholders are not
/// interpreted: the message is printed as given.
void reportError(clang::ASTContext &Ctx, clang::SourceLocation Loc,
                 llvm::StringRef Message, clang::SourceRange Range = {});
/// A note attached to the previous error (e.g. the call chain from a kernel).
void reportNote(clang::ASTContext &Ctx, clang::SourceLocation Loc,
                llvm::StringRef Message);
void reportWarning(clang::ASTContext &Ctx, clang::SourceLocation Loc,
                   llvm::StringRef Message);

} // namespace ferry
