// ferry summarize: one Ferry source's function summaries, for the rewrite of
// the target's other sources (plan/FileSummary.h).

#include "driver/Commands.h"
#include "driver/Frontend.h"
#include "driver/TargetInputs.h"
#include "plan/FileSummary.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

namespace ferry {

bool writeIfChanged(const std::string &Path, llvm::StringRef Text) {
  if (!Path.empty() && Path != "-")
    if (auto Old = llvm::MemoryBuffer::getFile(Path);
        Old && (*Old)->getBuffer() == Text)
      return true;
  return writeOutput(Path, Text);
}

int runSummarize(const CommandInputs &In, const std::string &Output,
                 const std::string &DepFile) {
  std::string Text;
  std::vector<std::string> Dependencies;
  bool Ok = runOnFile(In.Database, In.File, [&](ParsedUnit &Unit) {
    FileSummary S = summarizeFile(Unit.Context, summarySourcePath(In.File));
    if (Unit.Context.getDiagnostics().hasErrorOccurred())
      return false;
    Text = llvm::formatv("{0:2}", toJSON(S)).str() + "\n";
    Dependencies = Unit.Dependencies;
    return true;
  });
  if (!Ok || !writeIfChanged(Output, Text))
    return 1;
  if (!DepFile.empty() &&
      !writeIfChanged(DepFile, makeDepfile(Output, Dependencies)))
    return 1;
  return 0;
}

} // namespace ferry
