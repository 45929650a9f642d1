#include "driver/Commands.h"
#include "driver/Frontend.h"
#include "analyses/kernel/KernelDispatches.h"
#include "emit/OpenCLEmitter.h"
#include "parse/Annotations.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace ferry {

bool writeOutput(const std::string &Path, llvm::StringRef Text) {
  if (Path.empty() || Path == "-") {
    llvm::outs() << Text;
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "ferry: cannot write '" << Path << "': " << EC.message()
                 << "\n";
    return false;
  }
  OS << Text;
  return true;
}

int runEmit(const CommandInputs &In, const std::string &Output) {
  std::string Text;
  bool Ok = runOnFile(In.Database, In.File, [&](ParsedUnit &Unit) {
    ProgramModel Model = collectProgram(Unit.Context);
    auto Emitted = emitOpenCL(
        Unit.Context, Model.Kernels,
        analyzeBarrierFences(Unit.Context, Model.Kernels),
        analyzeRestrictParams(Model.Kernels, KernelDispatches(Unit.Context)));
    if (!Emitted)
      return false;
    Text = std::move(Emitted->OpenCL);
    return true;
  });
  return Ok && writeOutput(Output, Text) ? 0 : 1;
}

} // namespace ferry
