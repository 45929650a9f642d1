// Diagnostics of the emitter: every construct OpenCL C cannot express is an
// error at the construct, followed by notes naming each call on the way from
// the kernel to the helper it sits in. The messages themselves are written
// where each construct is printed.

#include "emit/Emitter.h"
#include "model/Diagnostics.h"

using namespace clang;

namespace ferry {
namespace emit {

void Emitter::error(SourceLocation Loc, const llvm::Twine &Msg,
                    SourceRange Range) {
  HadError = true;
  std::string Text = Msg.str();
  if (!Reported.insert({Loc.getRawEncoding(), Text}).second)
    return;
  reportError(Ctx, Loc, Text, Range);
  for (size_t I = Stack.size(); I-- > 1;) {
    const FunctionDecl *Callee = Stack[I].F;
    const FunctionDecl *Caller = Stack[I - 1].F;
    unsigned Line =
        SM.getPresumedLineNumber(SM.getExpansionLoc(Stack[I].Site->getBeginLoc()));
    reportNote(Ctx, Stack[I].Site->getBeginLoc(),
               "in helper '" + Callee->getQualifiedNameAsString() +
                   "', called from " + (I - 1 == 0 ? "kernel" : "helper") +
                   " '" + Caller->getQualifiedNameAsString() +
                   "' at line " + std::to_string(Line));
  }
}

std::string Emitter::cannot(const Stmt *S) {
  error(S->getBeginLoc(),
        std::string("Ferry cannot translate ") + S->getStmtClassName() +
            " to OpenCL C",
        S->getSourceRange());
  return "/*error*/0";
}

} // namespace emit
} // namespace ferry
