#pragma once
// Reading the summaries of a target's other Ferry sources (`--summaries`)
// for the file being rewritten or analysed.

#include "plan/TargetSummaries.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>
#include <vector>

namespace ferry {

/// The target as `Paths` describe it, with the main file of `Ctx` summarised
/// from its AST; nullopt when no paths are given (the file is planned
/// alone). A summary that cannot be read is a warning at the top of the main
/// file, and the target is then planned as if any file could call in.
std::optional<TargetSummaries>
loadTargetSummaries(clang::ASTContext &Ctx, const std::string &MainFile,
                    const std::vector<std::string> &Paths);

/// The path `ferry summarize` records for a source, and a reader compares:
/// the real path, so that `a.cpp` and `./a.cpp` are one file.
std::string summarySourcePath(const std::string &File);

} // namespace ferry
