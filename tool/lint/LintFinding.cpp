#include "lint/LintFinding.h"

#include "model/Diagnostics.h"
#include "model/StableOrder.h"

#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace ferry {

/// Whether the comment `Text` (a whole line) silences the race lint.
static bool silences(llvm::StringRef Line, llvm::StringRef Marker) {
  size_t At = Line.find(Marker);
  while (At != llvm::StringRef::npos) {
    llvm::StringRef Rest = Line.drop_front(At + Marker.size());
    // `NOLINT` alone silences everything; `NOLINT(a, b)` what it names.
    if (!Rest.starts_with("(") || Rest.take_until([](char C) {
                                    return C == ')';
                                  }).contains("ferry-race"))
      return true;
    At = Line.find(Marker, At + Marker.size());
  }
  return false;
}

static llvm::StringRef lineText(const SourceManager &SM, FileID File,
                                unsigned Line) {
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Line == 0)
    return {};
  size_t Start = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Start = Buffer.find('\n', Start);
    if (Start == llvm::StringRef::npos)
      return {};
    ++Start;
  }
  return Buffer.substr(Start).take_until([](char C) { return C == '\n'; });
}

static bool silenced(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  FileID File = SM.getFileID(Loc);
  unsigned Line = SM.getExpansionLineNumber(Loc);
  if (llvm::StringRef Text = lineText(SM, File, Line);
      silences(Text, "NOLINT") && !Text.contains("NOLINTNEXTLINE"))
    return true;
  return Line > 1 && silences(lineText(SM, File, Line - 1), "NOLINTNEXTLINE");
}

void reportFindings(ASTContext &Ctx, std::vector<LintFinding> Findings,
                    bool Warnings) {
  const SourceManager &SM = Ctx.getSourceManager();
  stableSort(Findings, [&](const LintFinding &A, const LintFinding &B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A.Loc),
                                        SM.getExpansionLoc(B.Loc));
  });
  std::set<std::pair<unsigned, std::string>> Seen;
  for (const LintFinding &F : Findings) {
    SourceLocation Loc = SM.getExpansionLoc(F.Loc);
    if (!F.isError() && (!Warnings || silenced(SM, Loc)))
      continue;
    // A helper reached twice along one path reports once.
    if (!Seen.insert({Loc.getRawEncoding(), F.Message}).second)
      continue;
    if (F.isError())
      reportError(Ctx, Loc, F.Message);
    else
      reportWarning(Ctx, Loc, F.Message);
    for (const LintNote &N : F.Notes)
      reportNote(Ctx, SM.getExpansionLoc(N.Loc), N.Message);
  }
}

std::string lintExpressionText(ASTContext &Ctx, const Expr *E) {
  if (!E)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(
      SM.getExpansionRange(E->getSourceRange()).getAsRange());
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  std::string Flat;
  for (char C : Text) {
    if (C == '\n' || C == '\t' || C == '\r')
      C = ' ';
    if (C == ' ' && !Flat.empty() && Flat.back() == ' ')
      continue;
    Flat += C;
  }
  if (Flat.size() > 60)
    Flat = Flat.substr(0, 57) + "...";
  return Flat;
}

} // namespace ferry
