// The shape of the printed text: lines, #line markers back into the user's
// source, the user's whole-line comments, and the user's line breaks inside
// long expressions.

#include "emit/Emitter.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ferry {
namespace emit {

std::string Emitter::fileOf(SourceLocation Loc) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  return P.isValid() ? P.getFilename() : "";
}

unsigned Emitter::lineOf(SourceLocation Loc) {
  return SM.getPresumedLineNumber(SM.getExpansionLoc(Loc));
}

std::string Emitter::quoted(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// Writes one line of the current function, preceded by a #line marker
/// (or blank lines, for a small gap) when it does not follow on.
void Emitter::line(SourceLocation Loc, const std::string &Text,
                   int ExtraIndent) {
  FunctionState &S = *Cur;
  if (Loc.isValid()) {
    unsigned L = lineOf(Loc);
    std::string File = fileOf(Loc);
    if (File == S.CurFile && L > S.CurLine && L - S.CurLine <= 2 &&
        S.CurLine != 0 && blankLines(Loc, S.CurLine, L)) {
      while (S.CurLine < L) {
        S.Out += "\n";
        ++S.CurLine;
      }
    } else if (File != S.CurFile || L != S.CurLine) {
      S.Out += "#line " + std::to_string(L) + " " + quoted(File) + "\n";
      S.CurLine = L;
      S.CurFile = File;
    }
  }
  S.Out += std::string((S.Indent + ExtraIndent) * IndentWidth, ' ') + Text +
           "\n";
  if (S.CurLine)
    S.CurLine += 1 + std::count(Text.begin(), Text.end(), '\n');
}

/// Are lines [From, To) of Loc's file blank? (Skipped lines that held
/// code, a `using` say, get a #line marker rather than blank lines.)
bool Emitter::blankLines(SourceLocation Loc, unsigned From, unsigned To) {
  SourceLocation E = SM.getExpansionLoc(Loc);
  FileID FID = SM.getFileID(E);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return false;
  for (unsigned L = From; L < To; ++L) {
    SourceLocation A = SM.translateLineCol(FID, L, 1);
    if (A.isInvalid())
      return false;
    unsigned Off = SM.getFileOffset(A);
    size_t End = Buf.find('\n', Off);
    if (!Buf.slice(Off, End).trim().empty())
      return false;
  }
  return true;
}

/// The user's comments on whole lines between `From` and `To` (two points
/// of one file, outside macros), printed at the current indentation.
void Emitter::comments(SourceLocation From, SourceLocation To) {
  if (From.isInvalid() || To.isInvalid() || From.isMacroID() ||
      To.isMacroID())
    return;
  FileID FID = SM.getFileID(From);
  if (FID != SM.getFileID(To))
    return;
  unsigned A = SM.getFileOffset(From), B = SM.getFileOffset(To);
  if (A >= B)
    return;
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return;
  llvm::StringRef Text = Buf.slice(A, B);
  // Skip the rest of From's line: a comment there trails code.
  size_t NL = Text.find('\n');
  if (NL == llvm::StringRef::npos)
    return;
  unsigned Off = A + NL + 1;
  bool InBlock = false;
  while (Off < B) {
    size_t End = Buf.find('\n', Off);
    if (End == llvm::StringRef::npos || End > B)
      End = B;
    llvm::StringRef L = Buf.slice(Off, End).rtrim();
    llvm::StringRef T = L.ltrim();
    SourceLocation Loc = SM.getComposedLoc(FID, Off + (L.size() - T.size()));
    if (InBlock) {
      line(Loc, T.str());
      InBlock = !T.contains("*/");
    } else if (T.starts_with("//")) {
      line(Loc, T.str());
    } else if (T.starts_with("/*")) {
      line(Loc, T.str());
      InBlock = !T.drop_front(2).contains("*/");
    }
    Off = End + 1;
  }
}

/// Where a token's text ends.
SourceLocation Emitter::endOf(SourceLocation Loc) {
  if (Loc.isInvalid() || Loc.isMacroID())
    return {};
  return Lexer::getLocForEndOfToken(Loc, 0, SM, Ctx.getLangOpts());
}

/// " " between two parts of an expression, or a line break where the user
/// broke the line, keeping the continuation's indentation relative to the
/// statement.
std::string Emitter::gap(SourceLocation Before, SourceLocation Next) {
  if (!Cur || Cur->StmtStart.isInvalid() || Before.isInvalid() ||
      Next.isInvalid() || Before.isMacroID() || Next.isMacroID() ||
      SM.getFileID(Before) != SM.getFileID(Next))
    return " ";
  unsigned L0 = SM.getSpellingLineNumber(Before);
  unsigned L1 = SM.getSpellingLineNumber(Next);
  if (L1 <= L0)
    return " ";
  unsigned C0 = SM.getSpellingColumnNumber(Cur->StmtStart);
  unsigned C1 = SM.getSpellingColumnNumber(Next);
  unsigned Base = Cur->Indent * IndentWidth;
  unsigned Col = C1 > C0 ? Base + (C1 - C0) : Base + 2 * IndentWidth;
  return "\n" + std::string(Col, ' ');
}

/// The text between two operands around operator `Op`, breaking the line
/// before or after the operator where the user did.
std::string Emitter::around(const Expr *LHS, SourceLocation OpLoc,
                            const Expr *RHS, llvm::StringRef Op) {
  std::string Before = gap(LHS->getEndLoc(), OpLoc);
  if (Before != " ")
    return Before + Op.str() + " ";
  return (Op == "," ? "" : " ") + Op.str() + gap(OpLoc, RHS->getBeginLoc());
}

} // namespace emit
} // namespace ferry
