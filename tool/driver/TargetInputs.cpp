#include "driver/TargetInputs.h"

#include "model/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace ferry {

std::string summarySourcePath(const std::string &File) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(File, Real))
    return File;
  return std::string(Real);
}

std::optional<TargetSummaries>
loadTargetSummaries(clang::ASTContext &Ctx, const std::string &MainFile,
                    const std::vector<std::string> &Paths) {
  if (Paths.empty())
    return std::nullopt;
  clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Top = SM.getLocForStartOfFile(SM.getMainFileID());
  std::vector<FileSummary> Others;
  bool Incomplete = false;
  std::string Self = summarySourcePath(MainFile);
  for (const std::string &Path : Paths) {
    std::string Error;
    if (auto Buffer = llvm::MemoryBuffer::getFile(Path)) {
      if (auto Value = llvm::json::parse((*Buffer)->getBuffer())) {
        if (auto S = summaryFromJSON(*Value, Error)) {
          // This file's own summary: its AST says the same, and more.
          if (S->Source != Self)
            Others.push_back(std::move(*S));
          continue;
        }
      } else {
        Error = llvm::toString(Value.takeError());
      }
    } else {
      Error = Buffer.getError().message();
    }
    Incomplete = true;
    reportWarning(Ctx, Top,
                  "cannot use the summary '" + Path + "' (" + Error +
                      "): calls into its file are planned as calls Ferry "
                      "cannot see, and this file's dispatching functions "
                      "bring their buffers home");
  }
  // The only Ferry source of its target: planned alone, as without
  // summaries.
  if (Others.empty() && !Incomplete)
    return std::nullopt;
  return TargetSummaries(std::move(Others), summarizeFile(Ctx, Self),
                         Incomplete);
}

} // namespace ferry
