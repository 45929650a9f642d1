#include "driver/Commands.h"
#include "driver/Frontend.h"
#include "driver/Lint.h"
#include "emit/OpenCLEmitter.h"
#include "plan/ProgramPlan.h"
#include "rewrite/HostRewriter.h"

#include "llvm/Support/raw_ostream.h"

namespace ferry {

static std::string escapeForMake(llvm::StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#' || C == '\\')
      Out += '\\';
    if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

int runRewrite(const CommandInputs &In, const std::string &Output,
               const std::string &OpenCLOutput, const std::string &DepFile) {
  std::string Rewritten, OpenCL;
  std::vector<std::string> Dependencies;
  bool Ok = runOnFile(In.Database, In.File, [&](ParsedUnit &Unit) {
    ProgramPlan Plan = planProgram(Unit.Context);
    if (Unit.Context.getDiagnostics().hasErrorOccurred())
      return false;
    lintProgram(Unit.Context, Plan);
    if (Unit.Context.getDiagnostics().hasErrorOccurred())
      return false;
    auto Emitted = emitOpenCL(Unit.Context, Plan.Model.Kernels);
    if (!Emitted)
      return false;
    auto Text = rewriteMainFile(Unit.Context, Plan.Functions, *Emitted);
    if (!Text)
      return false;
    Rewritten = std::move(*Text);
    OpenCL = std::move(Emitted->OpenCL);
    Dependencies = Unit.Dependencies;
    return true;
  });
  if (!Ok)
    return 1;
  if (!writeOutput(Output, Rewritten))
    return 1;
  if (!OpenCLOutput.empty() && !writeOutput(OpenCLOutput, OpenCL))
    return 1;
  if (!DepFile.empty()) {
    std::string Rule = escapeForMake(Output.empty() ? "-" : Output) + ":";
    for (const std::string &Dep : Dependencies)
      Rule += " \\\n  " + escapeForMake(Dep);
    if (!writeOutput(DepFile, Rule + "\n"))
      return 1;
  }
  return 0;
}

} // namespace ferry
