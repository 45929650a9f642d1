#include "driver/Commands.h"
#include "driver/Frontend.h"
#include "driver/Lint.h"
#include "driver/TargetInputs.h"
#include "analyses/kernel/KernelDispatches.h"
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

std::string makeDepfile(const std::string &Output,
                        const std::vector<std::string> &Dependencies) {
  std::string Rule = escapeForMake(Output.empty() ? "-" : Output) + ":";
  for (const std::string &Dep : Dependencies)
    Rule += " \\\n  " + escapeForMake(Dep);
  return Rule + "\n";
}

int runRewrite(const CommandInputs &In, const std::string &Output,
               const std::string &OpenCLOutput, const std::string &DepFile,
               const std::vector<std::string> &Summaries) {
  std::string Rewritten, OpenCL;
  std::vector<std::string> Dependencies;
  bool Ok = runOnFile(In.Database, In.File, [&](ParsedUnit &Unit) {
    std::optional<TargetSummaries> Target =
        loadTargetSummaries(Unit.Context, In.File, Summaries);
    ProgramPlan Plan = planProgram(Unit.Context, Target ? &*Target : nullptr);
    if (Unit.Context.getDiagnostics().hasErrorOccurred())
      return false;
    lintProgram(Unit.Context, Plan);
    if (Unit.Context.getDiagnostics().hasErrorOccurred())
      return false;
    auto Emitted =
        emitOpenCL(Unit.Context, Plan.Model.Kernels,
                   analyzeBarrierFences(Unit.Context, Plan.Model.Kernels),
                   analyzeRestrictParams(Plan.Model.Kernels,
                                         KernelDispatches(Unit.Context)));
    if (!Emitted)
      return false;
    auto Text = rewriteMainFile(Unit.Context, Plan.Functions, *Emitted,
                                Unit.SkippedIncludes, Plan.KeptAtComputes,
                                Plan.LeftOnDevice);
    if (!Text)
      return false;
    Rewritten = std::move(*Text);
    OpenCL = std::move(Emitted->OpenCL);
    Dependencies = Unit.Dependencies;
    return true;
  });
  if (!Ok)
    return 1;
  if (!writeIfChanged(Output, Rewritten))
    return 1;
  if (!OpenCLOutput.empty() && !writeIfChanged(OpenCLOutput, OpenCL))
    return 1;
  if (!DepFile.empty() &&
      !writeOutput(DepFile, makeDepfile(Output, Dependencies)))
    return 1;
  return 0;
}

} // namespace ferry
