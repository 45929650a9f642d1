#include "TestSupport.h"

#include "parse/Annotations.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace clang;

namespace ferry::test {

namespace {
class Capture : public DiagnosticConsumer {
public:
  explicit Capture(std::vector<Diagnostic> &Out) : Out(Out) {}
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Diagnostic D;
    switch (Level) {
    case DiagnosticsEngine::Error:
    case DiagnosticsEngine::Fatal:
      D.Level = "error";
      break;
    case DiagnosticsEngine::Warning:
      D.Level = "warning";
      break;
    case DiagnosticsEngine::Note:
      D.Level = "note";
      break;
    default:
      D.Level = "remark";
      break;
    }
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    D.Message = Text.str().str();
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid()) {
        D.Line = P.getLine();
        D.Column = P.getColumn();
      }
    }
    Out.push_back(D);
  }

private:
  std::vector<Diagnostic> &Out;
};

struct FunctionFinder : RecursiveASTVisitor<FunctionFinder> {
  std::string Name;
  const FunctionDecl *Found = nullptr;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *F) {
    const SourceManager &SM = F->getASTContext().getSourceManager();
    if (!SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation())))
      return true; // the headers' functions (std::fill, Buffer::size)
    if (!Found && F->isThisDeclarationADefinition() &&
        (F->getNameAsString() == Name ||
         F->getQualifiedNameAsString() == Name))
      Found = F;
    return true;
  }
};
} // namespace

Source::Source(const std::string &Code,
               const std::vector<std::string> &ExtraArgs)
    : Code(Code) {
  Consumer = std::make_unique<Capture>(Diagnostics);
  std::vector<std::string> Args = {"-std=c++17",
                                   "-I" FERRY_TEST_RUNTIME_INCLUDE_DIR,
                                   "-resource-dir", FERRY_CLANG_RESOURCE_DIR,
                                   "-Wno-unused-value", "-Wno-unused-variable",
                                   "-Wno-unknown-attributes"};
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  AST = tooling::buildASTFromCodeWithArgs(
      Code, Args, "input.cpp", "ferry-analyses-test",
      std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(),
      tooling::FileContentMappings(), Consumer.get());
  REQUIRE(AST);
  INFO("parse diagnostics: " << [&] {
    std::string S;
    for (const Diagnostic &D : Diagnostics)
      S += std::to_string(D.Line) + ": " + D.Message + "\n";
    return S;
  }());
  REQUIRE(errors().empty());
}

Source::~Source() = default;

ASTContext &Source::context() { return AST->getASTContext(); }

const FunctionDecl *Source::function(const std::string &Name) {
  FunctionFinder Finder;
  Finder.Name = Name;
  Finder.TraverseDecl(context().getTranslationUnitDecl());
  INFO("function " << Name);
  REQUIRE(Finder.Found);
  return Finder.Found;
}

ProgramModel Source::model() { return collectProgram(context()); }

KernelAccessSummary Source::kernel(const std::string &Name) {
  return analyzeKernelAccess(context(), function(Name), Pointers);
}

ParamAccess Source::param(const std::string &Kernel, const std::string &Param) {
  KernelAccessSummary S = kernel(Kernel);
  for (const ParamAccess &P : S.Buffers)
    if (P.Param->getName() == Param)
      return P;
  INFO("kernel " << Kernel << " has no buffer parameter " << Param);
  FAIL();
  return {};
}

std::vector<HostEvent> Source::events(const std::string &Function) {
  const FunctionDecl *F = function(Function);
  Table = std::make_unique<ObjectTable>(F);
  Facts = Table->entryPointsTo();
  return collectHostEvents(F->getBody(), *Table, Facts, Host);
}

std::vector<HostEvent> Source::eventsAt(const std::string &Function,
                                        const std::string &Marker,
                                        bool IntoBranches) {
  const FunctionDecl *F = function(Function);
  Table = std::make_unique<ObjectTable>(F);
  Facts = Table->entryPointsTo();
  unsigned Line = lineOf(Marker);
  // Down from the body to the statement: the facts before each block's
  // earlier statements, and at the head of each loop on the way.
  const Stmt *Block = F->getBody();
  while (const auto *CS = dyn_cast_or_null<CompoundStmt>(Block)) {
    const Stmt *Next = nullptr;
    for (const Stmt *T : CS->body()) {
      if (line(T->getBeginLoc()) == Line)
        return collectHostEvents(T, *Table, Facts, Host);
      if (line(T->getBeginLoc()) < Line && Line <= line(T->getEndLoc())) {
        Next = T;
        break;
      }
      applyAliasing(T, *Table, Facts);
    }
    INFO("no statement on the line of " << Marker);
    REQUIRE(Next);
    const Stmt *Body = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(Next)) {
      if (For->getInit())
        applyAliasing(For->getInit(), *Table, Facts);
      Body = For->getBody();
    } else if (const auto *W = dyn_cast<WhileStmt>(Next)) {
      Body = W->getBody();
    } else if (const auto *D = dyn_cast<DoStmt>(Next)) {
      Body = D->getBody();
    } else if (const auto *If = dyn_cast<IfStmt>(Next); If && IntoBranches) {
      for (const Stmt *Branch : {If->getThen(), If->getElse()})
        if (Branch && line(Branch->getBeginLoc()) <= Line &&
            Line <= line(Branch->getEndLoc()))
          Body = Branch;
      INFO("no branch of the if holds the line of " << Marker);
      REQUIRE(Body);
      if (!isa<CompoundStmt>(Body))
        return collectHostEvents(Body, *Table, Facts, Host);
      Block = Body;
      continue;
    }
    if (!Body) // a statement over several lines
      return collectHostEvents(Next, *Table, Facts, Host);
    Facts = loopHeadFacts(Next, *Table, Facts);
    if (line(Body->getBeginLoc()) == Line && !isa<CompoundStmt>(Body))
      return collectHostEvents(Body, *Table, Facts, Host);
    Block = Body;
  }
  FAIL("no block holds the line of " << Marker);
  return {};
}

std::vector<Access> Source::hostSummary(const std::string &Function) {
  return Host.summary(function(Function));
}

unsigned Source::line(SourceLocation L) {
  return L.isValid() ? context().getSourceManager().getExpansionLineNumber(L)
                     : 0;
}

unsigned Source::lineOf(const std::string &Marker) const {
  size_t At = Code.find(Marker);
  INFO("marker " << Marker);
  REQUIRE(At != std::string::npos);
  return 1 + static_cast<unsigned>(std::count(Code.begin(), Code.begin() + At, '\n'));
}

static std::string spell(const ObjectTable &T, const std::set<ObjectId> &Ids) {
  std::vector<std::string> Names;
  for (ObjectId Id : Ids)
    Names.push_back(T.object(Id).Spelling);
  std::sort(Names.begin(), Names.end());
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : "|") + N;
  return S;
}

std::string Source::targets(const HostEvent &E) const {
  return spell(*Table, E.Targets.Ids);
}

std::string Source::others(const HostEvent &E) const {
  return spell(*Table, E.Others.Ids);
}

std::vector<std::string> Source::trace(const std::string &Function) {
  std::vector<std::string> Out;
  for (const HostEvent &E : events(Function))
    Out.push_back(std::to_string(line(E.Site ? E.Site->getBeginLoc()
                                             : SourceLocation())) +
                  " " + eventName(E) + " " + targets(E) +
                  (E.Kind == HostEventKind::Swap ? "<->" + others(E) : ""));
  return Out;
}

std::vector<Diagnostic> Source::errors() const {
  std::vector<Diagnostic> Out;
  for (const Diagnostic &D : Diagnostics)
    if (D.Level == "error")
      Out.push_back(D);
  return Out;
}

std::string eventName(const HostEvent &E) { return hostEventName(E); }

std::string rangeText(const HostEvent &E) {
  if (!E.Range)
    return "whole";
  std::string S = "from " + E.Range->First + " count " + E.Range->Count;
  if (E.Range->Covers)
    S += ", covers";
  if (E.Range->CoversIfFull)
    S += ", covers if full";
  return S;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  INFO("reading " << Path);
  REQUIRE(In);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

} // namespace ferry::test
