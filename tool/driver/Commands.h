#pragma once
// One function per subcommand of `ferry`.

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace ferry {

struct CommandInputs {
  const clang::tooling::CompilationDatabase &Database;
  std::string File;
};

enum class AnalyzeFormat { Text, Json, Dot };

/// `Summaries`: the summaries of the target's Ferry sources (`ferry
/// summarize`); empty, the file is planned alone.
int runRewrite(const CommandInputs &In, const std::string &Output,
               const std::string &OpenCLOutput, const std::string &DepFile,
               const std::vector<std::string> &Summaries);
int runAnalyze(const CommandInputs &In, AnalyzeFormat Format,
               const std::vector<std::string> &Summaries);
int runSummarize(const CommandInputs &In, const std::string &Output,
                 const std::string &DepFile);
/// As writeOutput, but leaves `Path` alone when it holds `Text` already: an
/// unchanged summary or rewrite keeps its time stamp, so Ninja's restat
/// spares whatever reads it.
bool writeIfChanged(const std::string &Path, llvm::StringRef Text);
/// A Makefile rule: `Output` depends on every file of `Dependencies`.
std::string makeDepfile(const std::string &Output,
                        const std::vector<std::string> &Dependencies);
int runEmit(const CommandInputs &In, const std::string &Output);

/// Writes `Text` to `Path`, or to stdout when Path is empty or "-".
bool writeOutput(const std::string &Path, llvm::StringRef Text);

} // namespace ferry
