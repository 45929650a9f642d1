#include "driver/Lint.h"

#include "lint/DispatchLint.h"
#include "analyses/kernel/DispatchRange.h"
#include "lint/LintFinding.h"
#include "lint/LocalBarrierLint.h"
#include "lint/RaceLint.h"
#include "model/FerryTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/CommandLine.h"

#include <map>
#include <set>

using namespace clang;

namespace {
llvm::cl::opt<bool> NoRaceWarnings(
    "Wno-ferry-race",
    llvm::cl::desc("Do not warn about data races, missing barriers and "
                   "FERRY_WO buffers a dispatch covers in part"),
    llvm::cl::sub(llvm::cl::SubCommand::getAll()));
// The driver shows only its own category's options; this one is named here.
llvm::cl::extrahelp NoRaceWarningsHelp(
    "\nrewrite and analyze also take -Wno-ferry-race: no race-lint warnings "
    "(docs/lint.md;\none site: // NOLINT(ferry-race)).\n");
} // namespace

namespace ferry {

namespace {
struct Dispatch {
  const CallExpr *Call;
  const FunctionDecl *Caller;
  const FunctionDecl *Kernel;
};

/// Every dispatch in compute code, once, with the function it is in.
std::vector<Dispatch> dispatches(const ProgramPlan &Plan) {
  struct Find : RecursiveASTVisitor<Find> {
    std::vector<Dispatch> *Out;
    std::set<const CallExpr *> *Seen;
    const FunctionDecl *Caller;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitCallExpr(CallExpr *Call) {
      if (!isDispatchCall(Call) || !Seen->insert(Call).second)
        return true;
      for (const FunctionDecl *K : dispatchedKernels(Call))
        if (K->getDefinition())
          Out->push_back({Call, Caller, K->getDefinition()});
      return true;
    }
  };
  std::vector<Dispatch> Out;
  std::set<const CallExpr *> Seen;
  for (const ReachableGraph &G : Plan.ComputeGraphs)
    for (const FunctionDecl *F : G.Functions)
      if (F->hasBody()) {
        Find Finder;
        Finder.Out = &Out;
        Finder.Seen = &Seen;
        Finder.Caller = F;
        Finder.TraverseStmt(F->getBody());
      }
  return Out;
}
} // namespace

void lintProgram(ASTContext &Ctx, const ProgramPlan &Plan) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Dispatch> Sites = dispatches(Plan);
  std::map<const FunctionDecl *, std::vector<DispatchRange>> Ranges;
  for (const Dispatch &D : Sites)
    Ranges[D.Kernel].push_back(dispatchRange(D.Call));

  std::vector<LintFinding> Findings;
  auto Add = [&](std::vector<LintFinding> More) {
    for (LintFinding &F : More)
      Findings.push_back(std::move(F));
  };
  for (const ReachableGraph &G : Plan.KernelGraphs) {
    auto Summary = Plan.Kernels.find(G.Root);
    // A template's pattern is linted in its instantiations.
    if (Summary == Plan.Kernels.end() || G.Root->isDependentContext())
      continue;
    // A kernel no dispatch here names is linted where it is defined; one
    // every dispatch runs as a single work-item (or single-item groups)
    // has no one to race with.
    RaceLintScope Scope;
    auto It = Ranges.find(G.Root);
    if (It == Ranges.end()) {
      if (!SM.isWrittenInMainFile(SM.getExpansionLoc(G.Root->getLocation())))
        continue;
    } else {
      Scope.ManyItems = Scope.ManyItemsPerGroup = false;
      for (const DispatchRange &R : It->second) {
        Scope.ManyItems = Scope.ManyItems || !R.singleItem(Ctx);
        Scope.ManyItemsPerGroup = Scope.ManyItemsPerGroup ||
                                  (!R.singleItem(Ctx) &&
                                   !R.singleItemGroups(Ctx));
      }
    }
    if (It != Ranges.end())
      for (const DispatchRange &R : It->second) {
        if (!R.Visible || R.Dims < 1 || R.Dims > 3)
          continue;
        GroupShape Global{1, 1, 1};
        bool Known = true;
        for (int D = 0; D < R.Dims; ++D) {
          std::optional<long long> N = R.globalConstant(Ctx, D);
          Known = Known && N && *N >= 1;
          Global[D] = N.value_or(1);
        }
        if (Known)
          Scope.GlobalShapes.push_back(Global);
      }
    Add(findRacingWrites(Ctx, Summary->second, Scope));
    GroupSize LocalSize;
    if (It != Ranges.end())
      for (int D = 0; D < 3; ++D) {
        std::optional<long long> Least;
        for (const DispatchRange &R : It->second) {
          std::optional<long long> N =
              R.HasLocal && D < R.Dims ? integerConstant(Ctx, R.Local[D])
                                       : std::nullopt;
          if (!N) {
            Least.reset();
            break;
          }
          Least = Least ? std::min(*Least, *N) : *N;
        }
        LocalSize[D] = Least;
      }
    // The exact group size of each dispatch that gives it as constants.
    std::vector<GroupShape> Shapes;
    if (It != Ranges.end())
      for (const DispatchRange &R : It->second) {
        if (!R.HasLocal || R.Dims < 1 || R.Dims > 3)
          continue;
        GroupShape Shape{1, 1, 1};
        bool Known = true;
        for (int D = 0; D < R.Dims; ++D) {
          std::optional<long long> N = integerConstant(Ctx, R.Local[D]);
          Known = Known && N && *N >= 1;
          Shape[D] = N.value_or(1);
        }
        if (Known)
          Shapes.push_back(Shape);
      }
    if (Scope.ManyItemsPerGroup)
      Add(findMissingBarriers(Ctx, G, LocalSize, Shapes));
  }
  std::map<const FunctionDecl *, const ReachableGraph *> Graphs;
  for (const ReachableGraph &G : Plan.KernelGraphs)
    Graphs[G.Root] = &G;
  for (const Dispatch &D : Sites) {
    if (auto K = Plan.Kernels.find(D.Kernel); K != Plan.Kernels.end())
      Add(checkWriteOnlyCoverage(Ctx, D.Call, D.Caller, K->second));
    if (auto G = Graphs.find(D.Kernel); G != Graphs.end())
      Add(checkMissingLocal(Ctx, D.Call, *G->second));
  }
  reportFindings(Ctx, std::move(Findings), !NoRaceWarnings);
}

} // namespace ferry
