// `ferry analyze`: what the analyses found, as tables, JSON or Graphviz.

#include "driver/Commands.h"
#include "driver/Frontend.h"
#include "plan/ProgramPlan.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace ferry {

namespace {

const char *eventKindName(const HostEvent &E) {
  switch (E.Kind) {
  case HostEventKind::Access:
    return accessName(E.Mode);
  case HostEventKind::Create:
    return "create";
  case HostEventKind::Swap:
    return "swap";
  case HostEventKind::Reset:
    return "move";
  }
  return "?";
}

class Report {
public:
  Report(ASTContext &Ctx, const ProgramPlan &P)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), P(P) {}

  unsigned line(SourceLocation L) const {
    return L.isValid() ? SM.getExpansionLineNumber(L) : 0;
  }

  std::string objects(const FunctionDecl *F, const std::set<ObjectId> &Ids) const {
    std::string S;
    for (ObjectId Id : Ids)
      S += (S.empty() ? "" : "|") + P.Objects.at(F)->object(Id).Spelling;
    return S;
  }

  void text(llvm::raw_ostream &OS) const {
    OS << "Kernel-reachable graphs\n";
    for (const ReachableGraph &G : P.KernelGraphs)
      graphLine(OS, G);
    OS << "\nCompute-reachable graphs\n";
    for (const ReachableGraph &G : P.ComputeGraphs) {
      graphLine(OS, G);
      for (auto [Call, K] : G.Dispatches)
        OS << "    dispatches " << (K ? K->getNameAsString() : "?")
           << " at line " << line(Call->getBeginLoc()) << "\n";
    }
    for (const auto *K : P.Model.Kernels) {
      const KernelAccessSummary &S = P.Kernels.at(K);
      OS << "\nKernel " << K->getNameAsString() << " (line "
         << line(K->getLocation()) << ")\n";
      OS << llvm::formatv("  {0,-16} {1,-11} {2,-10} {3}\n", "parameter",
                          "inferred", "annotation", "writes cover the range");
      for (const ParamAccess &A : S.Buffers) {
        std::string Cover = "no";
        if (A.WritesCoverRange) {
          Cover = "yes, " + std::to_string(A.CoverageDims) + "-D index";
          if (A.CoverageBoundParam >= 0)
            Cover += ", bounded by '" +
                     K->getParamDecl(A.CoverageBoundParam)->getNameAsString() +
                     "'";
        } else if (!writes(A.Inferred)) {
          Cover = "-";
        }
        OS << llvm::formatv("  {0,-16} {1,-11} {2,-10} {3}\n",
                            A.Param->getNameAsString(), accessName(A.Inferred),
                            declaredAccessName(A.Declared), Cover);
      }
    }
    for (const FunctionPlan &FP : P.Functions) {
      const FunctionDecl *F = FP.Function;
      const ObjectTable &T = *P.Objects.at(F);
      OS << "\nCompute function " << F->getNameAsString() << " (line "
         << line(F->getLocation()) << ")"
         << (P.Entries.count(F) ? ", entry" : ", called from compute code")
         << "\n  buffers:";
      for (const BufferObject &O : T.objects())
        OS << " " << O.Spelling << " ("
           << (O.Kind == ObjectKind::Local ? "local" : "caller's") << ")";
      OS << "\n  may alias:";
      bool Any = false;
      for (const BufferObject &O : T.objects())
        for (ObjectId Other : O.MayAlias)
          if (Other > O.Id) {
            OS << " {" << O.Spelling << ", " << T.object(Other).Spelling << "}";
            Any = true;
          }
      if (!Any)
        OS << " none";
      OS << "\n  host buffer events:\n";
      for (const HostEvent &E : P.Events.at(F))
        OS << llvm::formatv("    line {0,-4} {1,-10} {2,-12} {3}\n",
                            line(E.Site ? E.Site->getBeginLoc() : SourceLocation()),
                            eventKindName(E), objects(F, E.Targets.Ids), E.What);
      OS << "  transfers: " << FP.staticCopies() << " static, "
         << FP.guardedCopies() << " guarded\n";
      for (const Transfer &Tr : FP.Transfers)
        OS << llvm::formatv("    line {0,-4} {1}({2}): {3}\n",
                            line(Tr.Anchor->getBeginLoc()),
                            runtimeCallName(Tr.Kind), Tr.Buffer, Tr.Reason);
    }
  }

  void graphLine(llvm::raw_ostream &OS, const ReachableGraph &G) const {
    OS << "  " << G.Root->getNameAsString();
    for (const CallEdge &E : G.Calls)
      OS << "\n    " << E.Caller->getNameAsString() << " -> "
         << E.Callee->getNameAsString() << " (line " << line(E.Site->getBeginLoc())
         << ")";
    OS << "\n";
  }

  llvm::json::Value json() const {
    llvm::json::Array Kernels;
    for (const auto *K : P.Model.Kernels) {
      llvm::json::Array Params;
      for (const ParamAccess &A : P.Kernels.at(K).Buffers)
        Params.push_back(llvm::json::Object{
            {"name", A.Param->getNameAsString()},
            {"index", A.Index},
            {"inferred", accessName(A.Inferred)},
            {"annotation", declaredAccessName(A.Declared)},
            {"writesCoverRange", A.WritesCoverRange},
            {"coverageDims", A.CoverageDims}});
      Kernels.push_back(llvm::json::Object{
          {"name", K->getNameAsString()},
          {"line", line(K->getLocation())},
          {"reaches", graphJson(P.KernelGraphs, K)},
          {"buffers", std::move(Params)}});
    }
    llvm::json::Array Computes;
    for (const FunctionPlan &FP : P.Functions) {
      const FunctionDecl *F = FP.Function;
      llvm::json::Array Events, Transfers, Buffers;
      for (const BufferObject &O : P.Objects.at(F)->objects()) {
        llvm::json::Array Aliases;
        for (ObjectId Id : O.MayAlias)
          Aliases.push_back(P.Objects.at(F)->object(Id).Spelling);
        Buffers.push_back(llvm::json::Object{
            {"name", O.Spelling},
            {"local", O.Kind == ObjectKind::Local},
            {"mayAlias", std::move(Aliases)}});
      }
      for (const HostEvent &E : P.Events.at(F))
        Events.push_back(llvm::json::Object{
            {"line", line(E.Site ? E.Site->getBeginLoc() : SourceLocation())},
            {"kind", eventKindName(E)},
            {"buffers", objects(F, E.Targets.Ids)},
            {"what", E.What}});
      for (const Transfer &T : FP.Transfers)
        Transfers.push_back(llvm::json::Object{
            {"line", line(T.Anchor->getBeginLoc())},
            {"call", runtimeCallName(T.Kind)},
            {"buffer", T.Buffer},
            {"guarded", isGuarded(T.Kind)},
            {"reason", T.Reason}});
      Computes.push_back(llvm::json::Object{
          {"name", F->getNameAsString()},
          {"line", line(F->getLocation())},
          {"entry", P.Entries.count(F) != 0},
          {"buffers", std::move(Buffers)},
          {"events", std::move(Events)},
          {"transfers", std::move(Transfers)},
          {"staticTransfers", FP.staticCopies()},
          {"guardedTransfers", FP.guardedCopies()}});
    }
    return llvm::json::Object{{"kernels", std::move(Kernels)},
                              {"computeFunctions", std::move(Computes)}};
  }

  llvm::json::Array graphJson(const std::vector<ReachableGraph> &Graphs,
                              const FunctionDecl *Root) const {
    llvm::json::Array A;
    for (const ReachableGraph &G : Graphs)
      if (G.Root == Root)
        for (const FunctionDecl *F : G.Functions)
          if (F != Root)
            A.push_back(F->getNameAsString());
    return A;
  }

  void dot(llvm::raw_ostream &OS) const {
    OS << "digraph ferry {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n";
    auto Id = [](const FunctionDecl *F) {
      return "\"" + F->getQualifiedNameAsString() + "\"";
    };
    for (const auto *K : P.Model.Kernels) {
      std::string Label = K->getNameAsString();
      for (const ParamAccess &A : P.Kernels.at(K).Buffers)
        Label += "\\n" + A.Param->getNameAsString() + ": " +
                 accessName(A.Inferred);
      OS << "  " << Id(K) << " [shape=box, style=filled, fillcolor=\"#dbe9f6\", label=\""
         << Label << "\"];\n";
    }
    for (const ReachableGraph &G : P.KernelGraphs)
      for (const CallEdge &E : G.Calls)
        OS << "  " << Id(E.Caller) << " -> " << Id(E.Callee) << ";\n";
    for (const ReachableGraph &G : P.ComputeGraphs) {
      OS << "  " << Id(G.Root)
         << " [shape=ellipse, style=filled, fillcolor=\"#fde8c8\"];\n";
      for (const CallEdge &E : G.Calls)
        OS << "  " << Id(E.Caller) << " -> " << Id(E.Callee) << ";\n";
      for (auto [Call, K] : G.Dispatches)
        if (K)
          OS << "  " << Id(G.Root) << " -> " << Id(K->getDefinition() ? K->getDefinition() : K)
             << " [style=dashed, label=\"dispatch, line " << line(Call->getBeginLoc())
             << "\"];\n";
    }
    for (const FunctionPlan &FP : P.Functions) {
      std::string Label = FP.Function->getNameAsString() + " transfers\\n";
      for (const Transfer &T : FP.Transfers)
        if (isCopy(T.Kind))
          Label += "line " + std::to_string(line(T.Anchor->getBeginLoc())) + ": " +
                   runtimeCallName(T.Kind) + "(" + T.Buffer + ")\\l";
      OS << "  \"plan_" << FP.Function->getNameAsString()
         << "\" [shape=note, label=\"" << Label << "\"];\n  "
         << Id(FP.Function) << " -> \"plan_" << FP.Function->getNameAsString()
         << "\" [style=dotted, arrowhead=none];\n";
    }
    OS << "}\n";
  }

private:
  ASTContext &Ctx;
  SourceManager &SM;
  const ProgramPlan &P;
};

} // namespace

int runAnalyze(const CommandInputs &In, AnalyzeFormat Format) {
  std::string Out;
  bool Ok = runOnFile(In.Database, In.File, [&](ParsedUnit &Unit) {
    ProgramPlan Plan = planProgram(Unit.Context);
    if (Unit.Context.getDiagnostics().hasErrorOccurred())
      return false;
    Report R(Unit.Context, Plan);
    llvm::raw_string_ostream OS(Out);
    switch (Format) {
    case AnalyzeFormat::Text:
      R.text(OS);
      break;
    case AnalyzeFormat::Json:
      OS << llvm::formatv("{0:2}", R.json()) << "\n";
      break;
    case AnalyzeFormat::Dot:
      R.dot(OS);
      break;
    }
    return true;
  });
  return Ok && writeOutput("", Out) ? 0 : 1;
}

} // namespace ferry
