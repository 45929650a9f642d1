#pragma once
// One function per subcommand of `ferry`.

#include "clang/Tooling/CompilationDatabase.h"

#include <string>

namespace ferry {

struct CommandInputs {
  const clang::tooling::CompilationDatabase &Database;
  std::string File;
};

enum class AnalyzeFormat { Text, Json, Dot };

int runRewrite(const CommandInputs &In, const std::string &Output,
               const std::string &OpenCLOutput, const std::string &DepFile);
int runAnalyze(const CommandInputs &In, AnalyzeFormat Format);
int runEmit(const CommandInputs &In, const std::string &Output);

/// Writes `Text` to `Path`, or to stdout when Path is empty or "-".
bool writeOutput(const std::string &Path, llvm::StringRef Text);

} // namespace ferry
