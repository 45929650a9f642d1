#pragma once
// Runs Clang on one source file with the user's flags and hands the parsed
// translation unit to a callback: the shared front half of every command.

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <string>
#include <vector>

namespace ferry {

struct ParsedUnit {
  clang::CompilerInstance &Compiler;
  clang::ASTContext &Context;
  /// Every non-system file the unit includes, the main file first.
  std::vector<std::string> Dependencies;
  /// Each #include the preprocessor skipped (an include guard, #pragma
  /// once): where it is, and the file it names.
  std::vector<std::pair<clang::SourceLocation, const clang::FileEntry *>>
      SkippedIncludes;
};

/// Returns false when parsing failed or the callback did.
using UnitCallback = std::function<bool(ParsedUnit &)>;

/// Parses `File` with the flags the database gives for it, plus what Ferry
/// needs (Clang's resource dir, <ferry/ferry.hpp> on the include path), and
/// calls `OnUnit` if the file parsed without errors.
bool runOnFile(const clang::tooling::CompilationDatabase &Database,
               const std::string &File, const UnitCallback &OnUnit);

} // namespace ferry
