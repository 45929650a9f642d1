#include "model/Diagnostics.h"

using namespace clang;

namespace ferry {

static void report(ASTContext &Ctx, DiagnosticsEngine::Level Level,
                   SourceLocation Loc, llvm::StringRef Message,
                   SourceRange Range) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  unsigned ID = Diags.getCustomDiagID(Level, "%0");
  auto Builder = Diags.Report(Loc, ID);
  Builder << Message;
  if (Range.isValid())
    Builder << Range;
}

void reportError(ASTContext &Ctx, SourceLocation Loc, llvm::StringRef Message,
                 SourceRange Range) {
  report(Ctx, DiagnosticsEngine::Error, Loc, Message, Range);
}

void reportNote(ASTContext &Ctx, SourceLocation Loc, llvm::StringRef Message) {
  report(Ctx, DiagnosticsEngine::Note, Loc, Message, {});
}

void reportWarning(ASTContext &Ctx, SourceLocation Loc,
                   llvm::StringRef Message) {
  report(Ctx, DiagnosticsEngine::Warning, Loc, Message, {});
}

} // namespace ferry
