#include "driver/Frontend.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace ferry {

namespace {
/// This executable, wherever it was installed or built.
std::string toolPath() {
  static int Anchor;
  return llvm::sys::fs::getMainExecutable("ferry", &Anchor);
}

/// Where <ferry/ferry.hpp> is: installed beside the tool (<prefix>/bin/ferry
/// and <prefix>/include), else in the source tree of the build that made it.
const std::string &runtimeIncludeDir() {
  static const std::string Dir = [] {
    llvm::SmallString<256> Installed(llvm::sys::path::parent_path(toolPath()));
    llvm::sys::path::append(Installed, FERRY_INCLUDE_DIR_FROM_TOOL);
    llvm::sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
    llvm::SmallString<256> Header(Installed);
    llvm::sys::path::append(Header, "ferry", "ferry.hpp");
    return llvm::sys::fs::exists(Header) ? std::string(Installed)
                                          : std::string(FERRY_RUNTIME_INCLUDE_DIR);
  }();
  return Dir;
}

/// Clang's own headers (stddef.h, ...). Clang looks for them relative to its
/// executable, <prefix>/lib/clang/<major>, which is where they are when
/// Ferry is installed where Clang is (/usr on Debian: libclang-common-19-dev
/// puts them in /usr/lib/clang/19). Anywhere else, those of the Clang the
/// tool was built with.
const std::string &clangResourceDir() {
  static const std::string Dir = [] {
    static int Anchor;
    std::string Beside = CompilerInvocation::GetResourcesPath("ferry", &Anchor);
    llvm::SmallString<256> Header(Beside);
    llvm::sys::path::append(Header, "include", "stddef.h");
    return llvm::sys::fs::exists(Header) ? Beside
                                          : std::string(FERRY_CLANG_RESOURCE_DIR);
  }();
  return Dir;
}

/// User headers, plus Ferry's own: the user's -I of the runtime may be
/// demoted to a system directory by the -idirafter the tool adds, and an
/// edited ferry.hpp must rewrite again like any other header.
class HeaderDependencies : public DependencyCollector {
  bool sawDependency(llvm::StringRef Filename, bool FromModule, bool IsSystem,
                     bool IsModuleFile, bool IsMissing) override {
    if (IsSystem && Filename.starts_with(runtimeIncludeDir()))
      IsSystem = false;
    return DependencyCollector::sawDependency(Filename, FromModule, IsSystem,
                                              IsModuleFile, IsMissing);
  }
};

using SkippedIncludeList =
    std::vector<std::pair<SourceLocation, const FileEntry *>>;

/// Records each #include the preprocessor skips: the rewriter replaces a
/// header's first #include by its text, and must know the later ones.
class SkippedIncludeRecorder : public PPCallbacks {
public:
  explicit SkippedIncludeRecorder(std::shared_ptr<SkippedIncludeList> Out)
      : Out(std::move(Out)) {}
  void FileSkipped(const FileEntryRef &SkippedFile, const Token &FilenameTok,
                   SrcMgr::CharacteristicKind) override {
    Out->emplace_back(FilenameTok.getLocation(), &SkippedFile.getFileEntry());
  }

private:
  std::shared_ptr<SkippedIncludeList> Out;
};

/// Hands the finished translation unit to the callback. This must happen in
/// HandleTranslationUnit: by EndSourceFileAction the diagnostic printer has
/// already been told the file ended, and reporting an error then crashes it.
class CallbackConsumer : public ASTConsumer {
public:
  CallbackConsumer(CompilerInstance &CI, std::string File,
                   std::shared_ptr<DependencyCollector> Dependencies,
                   std::shared_ptr<SkippedIncludeList> Skipped,
                   const UnitCallback &OnUnit, bool &Succeeded)
      : CI(CI), File(std::move(File)), Dependencies(std::move(Dependencies)),
        Skipped(std::move(Skipped)), OnUnit(OnUnit), Succeeded(Succeeded) {}

  void HandleTranslationUnit(ASTContext &Context) override {
    if (CI.getDiagnostics().hasErrorOccurred()) {
      Succeeded = false;
      return;
    }
    ParsedUnit Unit{CI, Context, {File}, {}};
    for (const std::string &Dep : Dependencies->getDependencies())
      if (Dep != File)
        Unit.Dependencies.push_back(Dep);
    Unit.SkippedIncludes = *Skipped;
    Succeeded = OnUnit(Unit) && !CI.getDiagnostics().hasErrorOccurred();
  }

private:
  CompilerInstance &CI;
  std::string File;
  std::shared_ptr<DependencyCollector> Dependencies;
  std::shared_ptr<SkippedIncludeList> Skipped;
  const UnitCallback &OnUnit;
  bool &Succeeded;
};

class CallbackAction : public ASTFrontendAction {
public:
  CallbackAction(const UnitCallback &OnUnit, bool &Succeeded)
      : OnUnit(OnUnit), Succeeded(Succeeded) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef File) override {
    // The preprocessor already exists here, so attach directly: collectors
    // added to the CompilerInstance now would never see an #include.
    auto Dependencies = std::make_shared<HeaderDependencies>();
    Dependencies->attachToPreprocessor(CI.getPreprocessor());
    auto Skipped = std::make_shared<SkippedIncludeList>();
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<SkippedIncludeRecorder>(Skipped));
    return std::make_unique<CallbackConsumer>(CI, File.str(), Dependencies,
                                              Skipped, OnUnit, Succeeded);
  }

private:
  const UnitCallback &OnUnit;
  bool &Succeeded;
};

class CallbackActionFactory : public tooling::FrontendActionFactory {
public:
  CallbackActionFactory(const UnitCallback &OnUnit, bool &Succeeded)
      : OnUnit(OnUnit), Succeeded(Succeeded) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CallbackAction>(OnUnit, Succeeded);
  }

private:
  const UnitCallback &OnUnit;
  bool &Succeeded;
};
} // namespace

bool runOnFile(const tooling::CompilationDatabase &Database,
               const std::string &File, const UnitCallback &OnUnit) {
  tooling::ClangTool Tool(Database, {File});
  // Tell Clang where its own headers are, which it cannot know when the tool
  // lives outside Clang's install tree; and make <ferry/ferry.hpp> findable
  // even when the user's flags came from a build that installed Ferry
  // elsewhere. Clang's own warnings are the compiler's to give when it
  // builds the rewritten file (libstdc++'s std::stable_sort warns under
  // Clang): -Wno-everything turns off every warning group, and Ferry's
  // diagnostics belong to none.
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      {"-resource-dir", clangResourceDir(), "-idirafter", runtimeIncludeDir(),
       "-Wno-everything"},
      tooling::ArgumentInsertPosition::END));
  bool Succeeded = true;
  CallbackActionFactory Factory(OnUnit, Succeeded);
  int Status = Tool.run(&Factory);
  return Status == 0 && Succeeded;
}

} // namespace ferry
