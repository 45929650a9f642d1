#include "rewrite/HostRewriter.h"

#include "model/Diagnostics.h"
#include "model/Naming.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <map>
#include <set>

using namespace clang;

namespace ferry {

namespace {

class HostRewriter {
public:
  HostRewriter(ASTContext &Ctx, const SkippedIncludes &Skipped)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        R(SM, LO), Skipped(Skipped) {}

  bool apply(const std::vector<FunctionPlan> &Plans,
             const EmittedProgram &Program,
             const std::vector<KeptAtCompute> &Kept,
             const std::vector<LeftOnDeviceInLoop> &Loops) {
    // (First: every line written inside a loop that gains a block is
    // indented one step further.)
    for (const LeftOnDeviceInLoop &L : Loops)
      if (wrappable(L.Loop))
        Wrapped.push_back(&L);
    // A planned function in a header the main file includes directly
    // (plan/ProgramPlan.cpp rejects any other header): that header is
    // rewritten too, and its text replaces the #include.
    for (const FunctionPlan &Plan : Plans) {
      FileID File =
          SM.getFileID(SM.getExpansionLoc(Plan.Function->getLocation()));
      if (File != SM.getMainFileID())
        Headers.insert(File);
    }
    for (const FunctionPlan &Plan : Plans) {
      std::map<std::pair<int, const Stmt *>, std::vector<const Transfer *>>
          Groups;
      std::vector<std::pair<int, const Stmt *>> Order;
      for (const Transfer &T : Plan.Transfers) {
        auto Key = std::make_pair(static_cast<int>(T.Where), T.Anchor);
        if (!Groups.count(Key))
          Order.push_back(Key);
        Groups[Key].push_back(&T);
      }
      for (const auto &Key : Order)
        if (!insertGroup(Plan.Context, Groups[Key]))
          return false;
      Current = Plan.Function;
      for (const DispatchPlan &D : Plan.Dispatches)
        if (!rewriteDispatch(D))
          return false;
    }
    // (First: a keep may go before the same statement, and after it.)
    for (const ForgottenAtEntry &F : forgottenAtEntry(Kept))
      if (!insertForget(F))
        return false;
    for (const KeptAtCompute &K : Kept)
      if (!insertKeep(K))
        return false;
    // (Last: the indentation goes after every line inserted at a line's
    // start.)
    for (const LeftOnDeviceInLoop *L : Wrapped)
      wrapLoop(*L);
    addProgram(Program);
    for (FileID Header : Headers)
      if (!inlineHeader(Header))
        return false;
    return true;
  }

  std::string result() {
    FileID Main = SM.getMainFileID();
    if (const RewriteBuffer *B = R.getRewriteBufferFor(Main))
      return std::string(B->begin(), B->end());
    return SM.getBufferData(Main).str();
  }

private:
  /// `cc.fromDevice(b, first, count)`: the runtime call of a transfer.
  static std::string call(const std::string &Context, const Transfer &T) {
    if (isUnnamed(T.Kind))
      return Context + "." + runtimeCallName(T.Kind) +
             (T.Buffer.empty() ? "" : "<" + T.Buffer + ">") + "()";
    std::string Arguments = T.Buffer;
    if (!T.Count.empty())
      Arguments += ", " + T.Count;
    if (!T.RangeFirst.empty())
      Arguments += ", " + T.RangeFirst + ", " + T.RangeCount;
    return Context + "." + runtimeCallName(T.Kind) + "(" + Arguments + ")";
  }

  std::string line(const std::string &Context, const Transfer &T) const {
    std::string If = T.OnlyIf.empty() ? "" : "if (" + T.OnlyIf + ") ";
    // A container of buffers: the same call for each of its elements.
    if (T.EachElement)
      return If + "for (auto &ferry_each : " + T.Buffer + ") " + Context +
             "." + runtimeCallName(T.Kind) + "(ferry_each); // ferry: " +
             T.Reason;
    return If + call(Context, T) + "; // ferry: " + T.Reason;
  }

  /// The leading white space of the line holding `Loc`, as the rewritten
  /// file has it (a loop that gains a block is indented one step further).
  std::string indentOf(SourceLocation Loc) const {
    std::string Indent = sourceIndentOf(Loc);
    for (const LeftOnDeviceInLoop *L : Wrapped)
      if (lineWithin(Loc, L->Loop))
        Indent += "  ";
    return Indent;
  }

  /// The indentation of S's first line as the rewrite prints it: a loop
  /// put in a block of its own (wrapLoop) moves its header in one step too.
  std::string indentOfStatement(const Stmt *S) const {
    std::string Indent = indentOf(statementBegin(S));
    for (const LeftOnDeviceInLoop *L : Wrapped)
      if (L->Loop == S)
        Indent += "  ";
    return Indent;
  }

  /// Where S's text begins. Clang 19 begins a call of a member function
  /// with an explicit object parameter (C++23, `b.poke(1)`) at the
  /// function's name, after its object, and so every expression that
  /// starts with one: the object's beginning is the call's.
  SourceLocation statementBegin(const Stmt *S) const {
    SourceLocation Begin = SM.getExpansionLoc(S->getBeginLoc());
    if (!isa<Expr>(S))
      return Begin;
    llvm::SmallVector<const Stmt *, 16> Work{S};
    while (!Work.empty()) {
      const Stmt *E = Work.pop_back_val();
      if (!E || isa<LambdaExpr>(E))
        continue;
      if (const auto *Call = dyn_cast<CallExpr>(E)) {
        const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getCalleeDecl());
        if (M && M->isExplicitObjectMemberFunction() &&
            Call->getNumArgs() > 0) {
          SourceLocation Object =
              SM.getExpansionLoc(Call->getArg(0)->getBeginLoc());
          if (SM.isBeforeInTranslationUnit(Object, Begin))
            Begin = Object;
        }
      }
      Work.append(E->child_begin(), E->child_end());
    }
    return Begin;
  }

  /// The leading white space of the line holding `Loc` in the source.
  std::string sourceIndentOf(SourceLocation Loc) const {
    StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
    unsigned Offset = SM.getFileOffset(Loc);
    // StringRef::rfind looks strictly before its start position.
    size_t Start = Buffer.rfind('\n', Offset);
    Start = Start == StringRef::npos ? 0 : Start + 1;
    size_t End = Start;
    while (End < Buffer.size() && (Buffer[End] == ' ' || Buffer[End] == '\t'))
      ++End;
    return Buffer.substr(Start, End - Start).str();
  }

  /// The end of the last character before the line starting at LineStart,
  /// if that line holds no `//` comment to put a brace behind.
  std::optional<SourceLocation> headerLineEnd(SourceLocation LineStart) const {
    StringRef Buffer = SM.getBufferData(SM.getFileID(LineStart));
    unsigned Offset = SM.getFileOffset(LineStart);
    unsigned End = Offset;
    while (End > 0 && isspace(static_cast<unsigned char>(Buffer[End - 1])))
      --End;
    size_t HeaderStart = Buffer.rfind('\n', End);
    HeaderStart = HeaderStart == StringRef::npos ? 0 : HeaderStart + 1;
    if (End == 0 || Buffer.substr(HeaderStart, End - HeaderStart).contains("//"))
      return std::nullopt;
    return LineStart.getLocWithOffset(static_cast<int>(End) -
                                      static_cast<int>(Offset));
  }

  bool startsLine(SourceLocation Loc) const {
    StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
    unsigned Offset = SM.getFileOffset(Loc);
    while (Offset > 0 &&
           (Buffer[Offset - 1] == ' ' || Buffer[Offset - 1] == '\t'))
      --Offset;
    return Offset == 0 || Buffer[Offset - 1] == '\n';
  }

  bool inMainFile(SourceLocation Loc, const char *What) {
    if (Loc.isValid() &&
        (SM.isWrittenInMainFile(Loc) ||
         Headers.count(SM.getFileID(SM.getExpansionLoc(Loc)))))
      return true;
    reportError(Ctx, Loc,
                std::string("Ferry must insert ") + What +
                    " here, but only the main source file and the headers "
                    "whose compute functions it rewrites are rewritten");
    return false;
  }

  /// Replaces the main file's #include of `Header` by the header's
  /// rewritten text, between #line markers that keep the compiler's
  /// diagnostics on the user's files. The header's own include guard stays,
  /// so a later #include of it is skipped; `#pragma once`, which would not
  /// skip the original file, becomes a guard, and a later #include of it
  /// in the main file a comment (in another header, an error).
  bool inlineHeader(FileID Header) {
    FileID Main = SM.getMainFileID();
    std::string Text;
    if (const RewriteBuffer *B = R.getRewriteBufferFor(Header))
      Text.assign(B->begin(), B->end());
    else
      Text = SM.getBufferData(Header).str();
    if (!Text.empty() && Text.back() != '\n')
      Text += '\n';
    std::string HeaderPath = absoluteSourcePath(Header);
    std::string Guard = onceGuardFor(HeaderPath);
    if (replacePragmaOnce(Text, "#ifndef " + Guard + "\n#define " + Guard)) {
      Text += "#endif // " + Guard + "\n";
      const FileEntry *Entry = SM.getFileEntryForID(Header);
      for (auto [Where, File] : Skipped) {
        if (File != Entry)
          continue;
        SourceLocation Loc = SM.getExpansionLoc(Where);
        if (!SM.isWrittenInMainFile(Loc)) {
          std::string Name = llvm::sys::path::filename(HeaderPath).str();
          reportError(Ctx, Loc,
                      "'" + Name +
                          "' is included again here, but Ferry writes its "
                          "rewritten text into the Ferry source in place of "
                          "its first #include, which '#pragma once' cannot "
                          "skip: give '" + Name + "' an include guard");
          return false;
        }
        auto [Start, End] = directiveLine(Loc);
        R.ReplaceText(SM.getLocForStartOfFile(Main).getLocWithOffset(Start),
                      End - Start,
                      "// ferry: " +
                          SM.getBufferData(Main).substr(Start, End - Start).str() +
                          ", already written above");
      }
    }
    SourceLocation At = SM.getExpansionLoc(SM.getIncludeLoc(Header));
    auto [Start, End] = directiveLine(At);
    StringRef MainText = SM.getBufferData(Main);
    unsigned Line = SM.getLineNumber(Main, SM.getFileOffset(At));
    std::string Inlined =
        "// ferry: " + MainText.substr(Start, End - Start).str() +
        ", rewritten here with its compute functions planned\n" +
        lineMarkerFor(1, HeaderPath) + Text +
        lineMarkerFor(Line + 1, absoluteSourcePath(Main));
    if (End < MainText.size())
      Inlined.pop_back(); // the directive's own newline follows
    R.ReplaceText(SM.getLocForStartOfFile(Main).getLocWithOffset(Start),
                  End - Start, Inlined);
    return true;
  }

  /// The offsets in the main file of the line holding Loc, its newline
  /// excluded.
  std::pair<unsigned, unsigned> directiveLine(SourceLocation Loc) const {
    StringRef Text = SM.getBufferData(SM.getMainFileID());
    unsigned Offset = SM.getFileOffset(Loc);
    size_t Start = Text.rfind('\n', Offset);
    Start = Start == StringRef::npos ? 0 : Start + 1;
    size_t End = Text.find('\n', Offset);
    if (End == StringRef::npos)
      End = Text.size();
    return {static_cast<unsigned>(Start), static_cast<unsigned>(End)};
  }

  std::string absoluteSourcePath(FileID File) const {
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    llvm::SmallString<256> Path(Entry ? Entry->getName() : "input");
    llvm::sys::fs::make_absolute(Path);
    llvm::sys::path::remove_dots(Path);
    return std::string(Path);
  }

  static std::string lineMarkerFor(unsigned Line, StringRef Path) {
    std::string Quoted;
    for (char C : Path) {
      if (C == '"' || C == '\\')
        Quoted += '\\';
      Quoted += C;
    }
    return "#line " + std::to_string(Line) + " \"" + Quoted + "\"\n";
  }

  /// `FERRY_INLINED_SOLVER_H` for .../solver.h.
  static std::string onceGuardFor(StringRef Path) {
    std::string Guard = "FERRY_INLINED_";
    for (char C : llvm::sys::path::filename(Path))
      Guard += isalnum(static_cast<unsigned char>(C))
                   ? static_cast<char>(toupper(static_cast<unsigned char>(C)))
                   : '_';
    return Guard;
  }

  /// Replaces the `#pragma once` line of Text by Replacement.
  static bool replacePragmaOnce(std::string &Text, const std::string &Replacement) {
    size_t Start = 0;
    while (Start < Text.size()) {
      size_t End = Text.find('\n', Start);
      if (End == std::string::npos)
        End = Text.size();
      StringRef Line = StringRef(Text).slice(Start, End).trim();
      bool Directive = Line.consume_front("#");
      Line = Line.ltrim();
      if (Directive && Line.consume_front("pragma") && Line.ltrim() == "once") {
        Text.replace(Start, End - Start, Replacement);
        return true;
      }
      Start = End + 1;
    }
    return false;
  }

  /// Just past the statement, its semicolon included.
  SourceLocation afterStatement(const Stmt *S) const {
    SourceLocation End = SM.getExpansionLoc(S->getEndLoc());
    SourceLocation Semi = Lexer::findLocationAfterToken(
        End, tok::semi, SM, LO, /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (Semi.isValid() && !isa<CompoundStmt>(S))
      return Semi;
    return Lexer::getLocForEndOfToken(End, 0, SM, LO);
  }

  const Stmt *parentOf(const Stmt *S) const {
    for (const DynTypedNode &P : Ctx.getParents(*S))
      if (const auto *PS = P.get<Stmt>())
        return PS;
    return nullptr;
  }

  bool insertGroup(const std::string &Context,
                   const std::vector<const Transfer *> &Group) {
    const Transfer &First = *Group.front();
    switch (First.Where) {
    case Placement::BeforeStmt:
      return insertBefore(Context, Group);
    case Placement::EndOfBlock:
      return insertAtEnd(Context, Group);
    case Placement::InCondition:
      return insertInCondition(Context, Group);
    }
    return false;
  }

  bool insertBefore(const std::string &Context,
                    const std::vector<const Transfer *> &Group) {
    const Stmt *S = Group.front()->Anchor;
    SourceLocation Loc = statementBegin(S);
    if (!inMainFile(Loc, "a transfer"))
      return false;
    const Stmt *Parent = parentOf(S);
    bool NeedsBraces = Parent && !isa<CompoundStmt>(Parent) &&
                       !isa<SwitchCase>(Parent) && !isa<LabelStmt>(Parent);
    std::string Indent = indentOf(Loc);
    if (!NeedsBraces) {
      std::string Text;
      for (const Transfer *T : Group)
        Text += line(Context, *T) + "\n" + Indent;
      if (!startsLine(Loc)) // `{ x = b[0]; }` on one line: keep it one line
        Text = "\n" + Indent + Text;
      R.InsertText(Loc, Text, /*InsertAfter=*/true);
      return true;
    }
    // A single-statement body gains braces, the opening one at the end of
    // the header line (`if (c) {`) unless a comment ends that line.
    std::string Outer = indentOfStatement(Parent);
    std::string Inner = Outer + "  ";
    std::string Lines;
    for (const Transfer *T : Group)
      Lines += Inner + line(Context, *T) + "\n";
    if (startsLine(Loc)) {
      SourceLocation LineStart = Loc.getLocWithOffset(
          -static_cast<int>(sourceIndentOf(Loc).size()));
      if (std::optional<SourceLocation> HeaderEnd = headerLineEnd(LineStart)) {
        R.InsertText(*HeaderEnd, " {", /*InsertAfter=*/true);
        R.InsertText(LineStart, Lines, /*InsertAfter=*/true);
      } else {
        R.ReplaceText(LineStart, sourceIndentOf(Loc).size(),
                      Outer + "{\n" + Lines + Inner);
      }
    } else {
      R.InsertText(Loc, "{\n" + Lines + Inner, /*InsertAfter=*/true);
    }
    R.InsertText(afterStatement(S), "\n" + Outer + "}", /*InsertAfter=*/true);
    return true;
  }

  bool insertAtEnd(const std::string &Context,
                   const std::vector<const Transfer *> &Group) {
    const auto *Block = cast<CompoundStmt>(Group.front()->Anchor);
    SourceLocation RBrace = SM.getExpansionLoc(Block->getRBracLoc());
    if (!inMainFile(RBrace, "a transfer"))
      return false;
    std::string Inner = Block->body_empty()
                            ? indentOf(RBrace) + "  "
                            : indentOf(statementBegin(Block->body_back()));
    std::string Text;
    for (const Transfer *T : Group)
      Text += Inner + line(Context, *T) + "\n";
    if (startsLine(RBrace)) {
      SourceLocation LineStart = RBrace.getLocWithOffset(
          -static_cast<int>(sourceIndentOf(RBrace).size()));
      R.InsertText(LineStart, Text, /*InsertAfter=*/true);
    } else {
      R.InsertText(RBrace, "\n" + Text + indentOf(RBrace), true);
    }
    return true;
  }

  bool insertInCondition(const std::string &Context,
                         const std::vector<const Transfer *> &Group) {
    const auto *Cond = cast<Expr>(Group.front()->Anchor);
    if (Cond->getBeginLoc().isMacroID() || Cond->getEndLoc().isMacroID()) {
      reportError(Ctx, SM.getExpansionLoc(Cond->getBeginLoc()),
                  "Ferry must copy a buffer inside this loop condition, but "
                  "it comes from a macro expansion");
      return false;
    }
    SourceLocation Begin = statementBegin(Cond);
    if (!inMainFile(Begin, "a transfer"))
      return false;
    std::string Calls = "(";
    for (const Transfer *T : Group)
      Calls += call(Context, *T) + ", ";
    R.InsertText(Begin, Calls, /*InsertAfter=*/true);
    R.InsertText(Lexer::getLocForEndOfToken(Cond->getEndLoc(), 0, SM, LO), ")",
                 /*InsertAfter=*/true);
    // The reasons go on a comment line before the loop.
    const Stmt *Loop = parentOf(Cond);
    if (Loop) {
      SourceLocation Loc = SM.getExpansionLoc(Loop->getBeginLoc());
      std::string Indent = indentOf(Loc);
      std::string Text;
      for (const Transfer *T : Group)
        Text += "// ferry: the loop condition copies: " + T->Reason + "\n" +
                Indent;
      if (const Stmt *Parent = parentOf(Loop);
          Parent && isa<CompoundStmt>(Parent) && startsLine(Loc))
        R.InsertText(Loc, Text, /*InsertAfter=*/true);
    }
    return true;
  }

  /// A loop the rewriter can put in a block of its own, indenting it: a
  /// statement of a block in the main file, on lines of its own, with no
  /// string literal running over lines (which indenting would change).
  bool wrappable(const Stmt *Loop) const {
    SourceLocation Begin = Loop->getBeginLoc(), End = Loop->getEndLoc();
    if (Begin.isMacroID() || End.isMacroID() || !SM.isWrittenInMainFile(Begin) ||
        !startsLine(Begin) || !isa_and_nonnull<CompoundStmt>(parentOf(Loop)))
      return false;
    struct Strings : RecursiveASTVisitor<Strings> {
      const SourceManager *SM;
      bool Spans = false;
      bool VisitStringLiteral(StringLiteral *S) {
        Spans = Spans || SM->getExpansionLineNumber(S->getBeginLoc()) !=
                             SM->getExpansionLineNumber(S->getEndLoc());
        return !Spans;
      }
    } Find;
    Find.SM = &SM;
    Find.TraverseStmt(const_cast<Stmt *>(Loop));
    return !Find.Spans;
  }

  /// Whether Loc is on one of the lines of Loop after its first (whose
  /// indentation stays with what goes before the block, a forget line).
  bool lineWithin(SourceLocation Loc, const Stmt *Loop) const {
    Loc = SM.getExpansionLoc(Loc);
    if (SM.getFileID(Loc) != SM.getMainFileID())
      return false;
    unsigned Line = SM.getExpansionLineNumber(Loc);
    return Line > SM.getExpansionLineNumber(Loop->getBeginLoc()) &&
           Line <= SM.getExpansionLineNumber(Loop->getEndLoc());
  }

  /// The loop in a block that starts with the object bringing its buffers
  /// home at the block's end (analyses/lifetime/LeftOnDeviceInLoops.h),
  /// its lines indented one step:
  ///
  ///   {
  ///     ferry::HomeAtScopeEnd ferry_home_12(acc, u, v); // ferry: …
  ///     for (…) {
  ///       …
  ///     }
  ///   }
  void wrapLoop(const LeftOnDeviceInLoop &L) {
    SourceLocation Begin = L.Loop->getBeginLoc();
    std::string Outer = indentOf(Begin);
    unsigned FirstLine = SM.getExpansionLineNumber(Begin);
    unsigned LastLine = SM.getExpansionLineNumber(L.Loop->getEndLoc());
    const auto *Object = L.Accelerator->IgnoreImplicit();
    std::string Accelerator = isa<CXXThisExpr>(Object->IgnoreParenImpCasts())
                                  ? "*this"
                                  : sourceText(Object);
    // (The buffers of a container's elements, as `bodies[…].pos_`.)
    std::string Quoted;
    for (size_t I = 0; I < L.Buffers.size(); ++I)
      Quoted += std::string(I ? ", `" : "`") +
                (L.InElements[I]
                     ? L.Buffers[I]->getNameAsString() + "[…]." +
                           pathSpelling(L.Paths[I])
                     : keptSpelling(L.Buffers[I], L.Paths[I])) +
                "`";
    // A member it may not name: its whole object, once (ferry::buffersIn
    // takes a pointer too, null then).
    std::string Names;
    std::set<const ValueDecl *> WholeRoots;
    for (size_t I = 0; I < L.Buffers.size(); ++I) {
      if (!L.Whole[I] || !WholeRoots.insert(L.Buffers[I]).second)
        continue;
      std::string Root = isa<FunctionDecl>(L.Buffers[I])
                             ? "*this"
                             : L.Buffers[I]->getNameAsString();
      Names += (Names.empty() ? "" : ", ") + ("ferry::buffersIn(" + Root + ")");
    }
    // Through a pointer the function may be handed null: as a pointer,
    // null then (the object takes either).
    for (size_t I = 0; I < L.Buffers.size(); ++I) {
      if (WholeRoots.count(L.Buffers[I]))
        continue;
      std::string Name = keptSpelling(L.Buffers[I], L.Paths[I]);
      std::string Guard = nullGuard({L.Buffers[I]});
      if (!Guard.empty())
        Name = L.Buffers[I]->getNameAsString() + " ? &" + Name + " : nullptr";
      Names += (Names.empty() ? "" : ", ") + Name;
    }
    bool One = L.Buffers.size() == 1;
    std::string Line =
        Outer + "  ferry::HomeAtScopeEnd ferry_home_" +
        std::to_string(FirstLine) + "(" + Accelerator + ", " + Names +
        "); // ferry: nothing in this loop but the kernels of its computes "
        "uses " + Quoted + ": " + (One ? "it stays" : "they stay") +
        " on the device until the loop ends, and " +
        (One ? "comes" : "come") + " home once";
    // (After the lines written before the loop, a forget among them.)
    R.InsertText(Begin, "{\n" + Line + "\n" + Outer + "  ",
                 /*InsertAfter=*/true);
    FileID File = SM.getMainFileID();
    StringRef Buffer = SM.getBufferData(File);
    for (unsigned N = FirstLine + 1; N <= LastLine; ++N) {
      SourceLocation At = SM.translateLineCol(File, N, 1);
      unsigned Offset = SM.getFileOffset(At);
      if (Offset < Buffer.size() && Buffer[Offset] != '\n' &&
          Buffer[Offset] != '\r')
        R.InsertText(At, "  ", /*InsertAfter=*/true);
    }
    // The closing brace on a line of its own, after a comment ending the
    // loop's last line.
    SourceLocation After = afterStatement(L.Loop);
    unsigned Offset = SM.getFileOffset(After);
    StringRef Rest = Buffer.substr(Offset, Buffer.find('\n', Offset) - Offset);
    StringRef Trimmed = Rest.ltrim(" \t");
    if (Trimmed.empty() || Trimmed.starts_with("//"))
      After = After.getLocWithOffset(static_cast<int>(Rest.size()));
    R.InsertText(After, "\n" + Outer + "}", /*InsertAfter=*/true);
  }

  /// `acc.keepOnDevice(b);` before a compute, for each buffer it keeps,
  /// the accelerator spelled as the compute spells it.
  bool insertKeep(const KeptAtCompute &K) {
    const auto *Member = dyn_cast<MemberExpr>(
        K.Compute->getCallee()->IgnoreParenImpCasts());
    if (!Member)
      return true; // (the analysis keeps only at `acc.compute(…)`)
    std::string Accelerator =
        sourceText(Member->getBase()) + (Member->isArrow() ? "->" : ".");
    std::string Function = K.Function->getNameAsString();
    std::vector<std::string> Lines;
    for (size_t I = 0; I < K.Buffers.size(); ++I) {
      std::string Name = keptSpelling(K.Buffers[I], K.Paths[I]);
      Lines.push_back(
          nullGuard({K.Buffers[I]}) + Accelerator + "keepOnDevice(" + Name +
          "); // ferry: " + Function +
          " has not written `" + Name +
          "` since the previous compute returned" +
          (!K.New[I] ? ""
           : ownedByCaller(K.Buffers[I], K.Function)
               ? " (on a path with none, its device copy is the one "
                 "forgotten at the function's start)"
               : " (on a path with none, it has no device copy yet)"));
    }
    // Those it carries through, in one line: there may be many.
    auto [Carried, Quoted] = spelledList(K.Carried, K.CarriedPaths);
    if (!K.Carried.empty())
      Lines.push_back(
          nullGuard(K.Carried) + Accelerator + "keepOnDevice(" + Carried +
          "); // ferry: " + Function +
          " has not written " + Quoted +
          (K.Carried.size() == 1
               ? " since the compute that last used it returned; this "
                 "compute does not use it, and a later one keeps it"
               : " since the compute that last used each returned; this "
                 "compute does not use them, and a later one keeps them"));
    return insertLinesBefore(K.Statement, Lines);
  }

  /// `if (m) ` before a line naming buffers through pointer parameters
  /// (`m->u`): the function may be called with a null one that it never
  /// follows, and a keep or a forget is only ever an optimisation.
  static std::string nullGuard(const std::vector<const ValueDecl *> &Roots) {
    std::string Test;
    std::set<const ValueDecl *> Seen;
    for (const ValueDecl *Root : Roots)
      if (!isa<FunctionDecl>(Root) && Root->getType()->isPointerType() &&
          Seen.insert(Root).second)
        Test += (Test.empty() ? "" : " && ") + Root->getNameAsString();
    return Test.empty() ? "" : "if (" + Test + ") ";
  }

  /// Kept buffers as a call's arguments (`u, st.v`) and as prose
  /// (`` `u`, `st.v` ``).
  static std::pair<std::string, std::string>
  spelledList(const std::vector<const ValueDecl *> &Roots,
              const std::vector<FieldPath> &Paths) {
    std::string Arguments, Quoted;
    for (size_t I = 0; I < Roots.size(); ++I) {
      std::string Name = keptSpelling(Roots[I], Paths[I]);
      Arguments += (I ? ", " : "") + Name;
      Quoted += (I ? ", `" : "`") + Name + "`";
    }
    return {Arguments, Quoted};
  }

  /// `ferry::forgetDeviceCopies(p, m.u);` as the function's first line.
  bool insertForget(const ForgottenAtEntry &F) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(F.Function->getBody());
    if (!Body || Body->body_empty())
      return true; // (the analysis forgets only where computes follow)
    auto [Names, Quoted] = spelledList(F.Buffers, F.Paths);
    bool One = F.Buffers.size() == 1;
    return insertLinesBefore(
        Body->body_front(),
        {nullGuard(F.Buffers) + "ferry::forgetDeviceCopies(" + Names +
         "); // ferry: the caller of " +
         F.Function->getNameAsString() + " may have written " + Quoted +
         " since its last compute returned: from here " +
         (One ? "its device copy counts" : "their device copies count") +
         " as stale, and the computes below may keep " +
         (One ? "it" : "them") + " on the device"});
  }

  /// Lines of their own before the statement S, which gains braces when it
  /// is the single-statement body of a loop or an `if`.
  bool insertLinesBefore(const Stmt *S, const std::vector<std::string> &Lines) {
    SourceLocation Loc = statementBegin(S);
    if (!inMainFile(Loc, "a line keeping buffers on the device"))
      return false;
    const Stmt *Parent = parentOf(S);
    std::string Indent = indentOf(Loc);
    if (!Parent || isa<CompoundStmt>(Parent) || isa<SwitchCase>(Parent) ||
        isa<LabelStmt>(Parent)) {
      std::string Text;
      for (const std::string &L : Lines)
        Text += L + "\n" + Indent;
      if (!startsLine(Loc))
        Text = "\n" + Indent + Text;
      R.InsertText(Loc, Text, /*InsertAfter=*/true);
      return true;
    }
    std::string Outer = indentOfStatement(Parent);
    std::string Inner = Outer + "  ";
    std::string Text;
    for (const std::string &L : Lines)
      Text += Inner + L + "\n";
    if (startsLine(Loc)) {
      SourceLocation LineStart = Loc.getLocWithOffset(
          -static_cast<int>(sourceIndentOf(Loc).size()));
      if (std::optional<SourceLocation> HeaderEnd = headerLineEnd(LineStart)) {
        R.InsertText(*HeaderEnd, " {", /*InsertAfter=*/true);
        R.InsertText(LineStart, Text, /*InsertAfter=*/true);
      } else {
        R.ReplaceText(LineStart, sourceIndentOf(Loc).size(),
                      Outer + "{\n" + Text + Inner);
      }
    } else {
      R.InsertText(Loc, "{\n" + Text + Inner, /*InsertAfter=*/true);
    }
    R.InsertText(afterStatement(S), "\n" + Outer + "}", /*InsertAfter=*/true);
    return true;
  }

  /// The text of `E` as the file spells it, macros unexpanded.
  std::string sourceText(const Expr *E) const {
    return Lexer::getSourceText(
               Lexer::makeFileCharRange(
                   CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO),
               SM, LO)
        .str();
  }

  bool rewriteDispatch(const DispatchPlan &D) {
    const auto *Member =
        dyn_cast<MemberExpr>(D.Call->getCallee()->IgnoreParenImpCasts());
    if (!Member || D.Call->getBeginLoc().isMacroID()) {
      reportError(Ctx, SM.getExpansionLoc(D.Call->getBeginLoc()),
                  "this dispatch cannot be rewritten: write it as "
                  "cc.dispatch(kernel, range, args...) outside macros");
      return false;
    }
    if (!inMainFile(Member->getMemberLoc(), "an OpenCL launch"))
      return false;
    R.ReplaceText(Member->getMemberLoc(), 8 /* "dispatch" */, "launch");
    std::string Name = "\"" + D.OpenCLName + "\"";
    if (!D.NameTable.empty()) {
      std::optional<std::string> Table = nameTable(D);
      if (!Table)
        return false;
      Name = "ferry::detail::kernelNamed(" +
             Lexer::getSourceText(CharSourceRange::getTokenRange(
                                      D.Call->getArg(0)->getSourceRange()),
                                  SM, LO)
                 .str() +
             ", " + *Table + ")";
    }
    R.InsertText(D.Call->getArg(0)->getBeginLoc(),
                 std::string("::") + ProgramVariableName + ", " + Name + ", ",
                 /*InsertAfter=*/true);
    for (const LaunchArgument &A : D.Arguments) {
      if (A.Wrapper.empty() && A.CastTo.empty())
        continue; // passed as written
      // `n * NVAR` with a macro at either end still has a place in the file
      // before and after it; only an argument that is part of a macro's
      // body has none.
      CharSourceRange File = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(A.Arg->getSourceRange()), SM, LO);
      if (File.isInvalid()) {
        reportError(Ctx, SM.getExpansionLoc(A.Arg->getBeginLoc()),
                    "this dispatch argument comes from inside a macro "
                    "expansion, so Ferry cannot wrap it; pass a variable "
                    "or a whole macro instead");
        return false;
      }
      SourceLocation Begin = File.getBegin(), End = File.getEnd();
      if (!A.Wrapper.empty()) {
        R.InsertText(Begin, "ferry::" + A.Wrapper + "(", true);
        R.InsertText(End, coverageBound(D, A) + ")", true);
      } else if (!A.CastTo.empty()) {
        R.InsertText(Begin, "static_cast<" + A.CastTo + ">(", true);
        R.InsertText(End, ")", true);
      }
    }
    return true;
  }

  /// The table of OpenCL names of a dispatch in a template whose
  /// instantiations dispatch different kernels, written before the
  /// template's declaration (which follows the kernels it names); returns
  /// its name.
  std::optional<std::string> nameTable(const DispatchPlan &D) {
    const Decl *Outer = outermostTemplate();
    if (!inMainFile(SM.getExpansionLoc(Outer->getBeginLoc()),
                              "a table of kernel names"))
      return std::nullopt;
    std::string Name = "ferry_kernel_names_" + std::to_string(++Tables);
    std::string Text = "// ferry: the OpenCL name of each kernel the "
                       "dispatch at line " +
                       std::to_string(SM.getExpansionLineNumber(
                           D.Call->getBeginLoc())) +
                       " may run, chosen at run time" +
                       "\n[[maybe_unused]] static const "
                       "ferry::detail::KernelName " +
                       Name + "[] = {\n";
    for (const auto &[Kernel, OpenCLName] : D.NameTable)
      Text += "    {ferry::detail::kernelKey(&" + Kernel + "), \"" +
              OpenCLName + "\"},\n";
    Text += "};\n";
    R.InsertText(SM.getExpansionLoc(Outer->getBeginLoc()), Text,
                 /*InsertAfter=*/true);
    return Name;
  }

  /// The declaration at namespace scope that holds the function being
  /// rewritten: its template, or the template of the class it is a member
  /// of.
  const Decl *outermostTemplate() const {
    const FunctionDecl *Pattern = Current->getTemplateInstantiationPattern();
    const Decl *Outer = Pattern ? Pattern : Current;
    if (const FunctionTemplateDecl *FT =
            cast<FunctionDecl>(Outer)->getDescribedFunctionTemplate())
      Outer = FT;
    while (!Outer->getDeclContext()->isFileContext()) {
      Outer = cast<Decl>(Outer->getDeclContext());
      if (const auto *RD = dyn_cast<CXXRecordDecl>(Outer))
        if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
          Outer = CT;
    }
    return Outer;
  }

  /// `, n`, `, ferry::grid(…)` or `, ferry::volume(…)` after a `wo`
  /// argument of D: what the kernel's store covers, with the kernel's
  /// parameters spelled as D's arguments, checked by the runtime at each
  /// launch (ferry::wo).
  std::string coverageBound(const DispatchPlan &D, const LaunchArgument &A) {
    if (A.CoverageUnknown)
      return ", 0";
    // ferry::woFrom(b, first[, bound]): where a store at an offset starts.
    const std::string First =
        A.CoverageFirst.empty() ? "" : ", " + A.CoverageFirst;
    if (A.CoverageBound)
      return First + ", " + sourceText(A.CoverageBound);
    if (!First.empty())
      return First;
    if (!A.Grid)
      return "";
    const GridCoverage &G = *A.Grid;
    auto Arg = [&](int Param) { return sourceText(D.argumentFor(Param)); };
    // A guard's argument, a loop's constant bound, or no bound at all.
    auto Bound = [&](int Param, std::optional<long long> Count) {
      return Param >= 0 ? Arg(Param)
             : Count    ? std::to_string(*Count)
                        : std::string("ferry::unbounded");
    };
    if (G.PlaneRowsParam >= 0) {
      // `2 + ferry::tripCount(1, (nz) - 1)`: the planes the walk stores.
      std::string Planes = std::to_string(G.PlanesConst);
      if (G.PlanesPerTrip) {
        std::string End = "(" + Arg(G.TripBoundParam) + ")";
        if (G.TripOffset)
          End += (G.TripOffset > 0 ? " + " : " - ") +
                 std::to_string(std::llabs(G.TripOffset));
        Planes += " + " +
                  (G.PlanesPerTrip == 1
                       ? std::string()
                       : std::to_string(G.PlanesPerTrip) + " * ") +
                  "ferry::tripCount(" + std::to_string(G.TripStart) + ", " +
                  End + ")";
      }
      return ", ferry::volume(" + std::to_string(G.ColDim) + ", " +
             Arg(G.WidthParam) + ", " + std::to_string(G.RowDim) + ", " +
             Arg(G.PlaneRowsParam) + ", " + Planes + ")";
    }
    return ", ferry::grid(" + std::to_string(G.ColDim) + ", " +
           Bound(G.ColBoundParam, G.ColCount) + ", " +
           (G.WidthParam >= 0 ? Arg(G.WidthParam)
                              : std::to_string(G.WidthConst.value_or(0))) +
           ", " + std::to_string(G.RowDim) + ", " +
           Bound(G.RowBoundParam, G.RowCount) + ")";
  }

  void addProgram(const EmittedProgram &Program) {
    FileID Main = SM.getMainFileID();
    std::string Name =
        SM.getFileEntryRefForID(Main)
            ? SM.getFileEntryRefForID(Main)->getName().rsplit('/').second.str()
            : "input";
    if (Name.empty())
      Name = SM.getFileEntryRefForID(Main)->getName().str();
    std::string Header =
        "// Rewritten by ferry " FERRY_VERSION " from " + Name +
        ": edit the original, not this file.\n"
        "// Each line ending in a `// ferry:` comment was added by Ferry and "
        "says why.\n"
        "// The kernels of this file, translated to OpenCL C:\n"
        "[[maybe_unused]] static const char " +
        std::string(ProgramVariableName) + "[] = R\"ferry_cl(\n" +
        Program.OpenCL + ")ferry_cl\";\n\n";
    R.InsertText(SM.getLocForStartOfFile(Main), Header, /*InsertAfter=*/false);
    if (!Program.HostLayoutChecks.empty())
      R.InsertText(SM.getLocForEndOfFile(Main),
                   "\n// ferry: the device sees these structs with the same "
                   "layout as the host.\n" +
                       Program.HostLayoutChecks,
                   true);
  }

  ASTContext &Ctx;
  SourceManager &SM;
  const LangOptions &LO;
  Rewriter R;
  const SkippedIncludes &Skipped;
  std::set<FileID> Headers;
  /// The loops that gain a block of their own, and an indentation step.
  std::vector<const LeftOnDeviceInLoop *> Wrapped;
  unsigned Tables = 0;
  /// The function whose dispatches are being rewritten.
  const FunctionDecl *Current = nullptr;
};

} // namespace

std::optional<std::string>
rewriteMainFile(ASTContext &Ctx, const std::vector<FunctionPlan> &Plans,
                const EmittedProgram &Program, const SkippedIncludes &Skipped,
                const std::vector<KeptAtCompute> &Kept,
                const std::vector<LeftOnDeviceInLoop> &Loops) {
  HostRewriter Rewriter(Ctx, Skipped);
  if (!Rewriter.apply(Plans, Program, Kept, Loops))
    return std::nullopt;
  return Rewriter.result();
}

} // namespace ferry
