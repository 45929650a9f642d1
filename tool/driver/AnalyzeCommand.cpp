// `ferry analyze`: what the analyses found, as tables a user can check by
// eye, as JSON for tools, or as a Graphviz picture. docs/analyze.md
// describes every field.

#include "driver/TargetInputs.h"
#include "driver/Commands.h"
#include "driver/Frontend.h"
#include "driver/Lint.h"
#include "model/Naming.h"
#include "plan/ProgramPlan.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;

namespace ferry {

namespace {

/// A left-aligned text table: columns as wide as their widest cell.
class Table {
public:
  explicit Table(std::vector<std::string> Header) { Rows.push_back(Header); }
  void row(std::vector<std::string> Cells) { Rows.push_back(std::move(Cells)); }
  bool empty() const { return Rows.size() == 1; }

  void print(llvm::raw_ostream &OS, llvm::StringRef Indent) const {
    std::vector<size_t> Width;
    for (const auto &R : Rows)
      for (size_t I = 0; I < R.size(); ++I) {
        if (Width.size() <= I)
          Width.push_back(0);
        Width[I] = std::max(Width[I], R[I].size());
      }
    for (const auto &R : Rows) {
      std::string Line = Indent.str();
      for (size_t I = 0; I < R.size(); ++I) {
        Line += R[I];
        if (I + 1 < R.size())
          Line += std::string(Width[I] - R[I].size() + 2, ' ');
      }
      while (!Line.empty() && Line.back() == ' ')
        Line.pop_back();
      OS << Line << "\n";
    }
  }

private:
  std::vector<std::vector<std::string>> Rows;
};

class Report {
public:
  Report(ASTContext &Ctx, const ProgramPlan &P)
      : SM(Ctx.getSourceManager()), P(P), Host(Pointers) {}

  // --- shared facts ----------------------------------------------------------
  unsigned line(SourceLocation L) const {
    return L.isValid() ? SM.getExpansionLineNumber(L) : 0;
  }
  unsigned line(const Stmt *S) const {
    return S ? line(S->getBeginLoc()) : 0;
  }
  std::string lineText(SourceLocation L) const {
    return L.isValid() ? "line " + std::to_string(line(L)) : "-";
  }

  const ReachableGraph *computeGraph(const FunctionDecl *F) const {
    for (const ReachableGraph &G : P.ComputeGraphs)
      if (G.Root == F)
        return &G;
    return nullptr;
  }

  std::string objects(const FunctionDecl *F, const ObjectRefs &R) const {
    std::vector<std::string> Names;
    for (ObjectId Id : R.Ids)
      Names.push_back(P.Objects.at(F)->object(Id).Spelling);
    std::sort(Names.begin(), Names.end());
    std::string S;
    for (const std::string &N : Names)
      S += (S.empty() ? "" : "|") + N;
    if (!R.Exact)
      S += " (any of its type)";
    return S;
  }

  static std::string coverage(const FunctionDecl *K, const ParamAccess &A) {
    if (!writes(A.Inferred))
      return "-";
    if (!A.WritesCoverRange)
      return "no";
    std::string S = "yes, " + std::to_string(A.CoverageDims) + "-D index";
    if (!A.CoverageOffset.empty())
      S += " plus an offset";
    if (A.CoverageBoundParam >= 0)
      S += ", up to '" +
           K->getParamDecl(A.CoverageBoundParam)->getNameAsString() + "'";
    if (A.Grid.Valid)
      S += std::string(A.Grid.PlaneRowsParam >= 0 ? ", a volume" : ", a grid") +
           " of width " +
           (A.Grid.WidthParam >= 0
                ? "'" + K->getParamDecl(A.Grid.WidthParam)->getNameAsString() +
                      "'"
                : std::to_string(A.Grid.WidthConst.value_or(0))) +
           " (checked at run time)";
    return S;
  }

  static llvm::json::Value paramName(const FunctionDecl *K, int Index) {
    return Index >= 0 ? llvm::json::Value(K->getParamDecl(Index)->getNameAsString())
                      : llvm::json::Value(nullptr);
  }

  /// The grid a covering store writes (GridCoverage), or null.
  static llvm::json::Value gridJson(const FunctionDecl *K, const ParamAccess &A) {
    if (!A.Grid.Valid)
      return nullptr;
    const GridCoverage &G = A.Grid;
    return llvm::json::Object{
        {"colDim", G.ColDim},
        {"colBound", paramName(K, G.ColBoundParam)},
        {"width", G.WidthParam >= 0 || !G.WidthConst
                      ? paramName(K, G.WidthParam)
                      : llvm::json::Value(*G.WidthConst)},
        {"rowDim", G.RowDim},
        {"rowBound", paramName(K, G.RowBoundParam)},
        {"rowCount", G.RowCount ? llvm::json::Value(*G.RowCount)
                                : llvm::json::Value(nullptr)},
        {"planeRows", paramName(K, G.PlaneRowsParam)},
        {"planes",
         G.PlaneRowsParam < 0
             ? llvm::json::Value(nullptr)
             : llvm::json::Value(llvm::json::Object{
                   {"const", G.PlanesConst},
                   {"perTrip", G.PlanesPerTrip},
                   {"tripBound", paramName(K, G.TripBoundParam)},
                   {"tripOffset", G.TripOffset},
                   {"tripStart", G.TripStart}})}};
  }

  /// Functions a compute function reaches that are not planned themselves,
  /// with what they do to their pointer and reference parameters.
  std::vector<std::pair<const FunctionDecl *, std::string>>
  helpers(const FunctionDecl *F) {
    std::vector<std::pair<const FunctionDecl *, std::string>> Out;
    const ReachableGraph *G = computeGraph(F);
    if (!G)
      return Out;
    for (const FunctionDecl *H : G->Functions) {
      if (H == F)
        continue;
      if (P.Planned.count(H)) {
        Out.emplace_back(H, "dispatches kernels: planned on its own");
        continue;
      }
      const std::vector<Access> &S = Host.summary(H);
      std::string Text;
      for (unsigned I = 0; I < H->getNumParams() && I < S.size(); ++I) {
        QualType T = H->getParamDecl(I)->getType();
        if (!T->isPointerType() && !T->isReferenceType())
          continue;
        Text += (Text.empty() ? "" : ", ") +
                H->getParamDecl(I)->getNameAsString() + ": " +
                accessName(S[I]);
      }
      Out.emplace_back(H, Text.empty() ? "no buffer parameters" : Text);
    }
    return Out;
  }

  std::string eventWhat(const FunctionDecl *F, const HostEvent &E,
                        const std::optional<ElementRange> &R) const {
    std::string What = E.What;
    if (E.Kind == HostEventKind::Swap)
      What += " with " + objects(F, E.Others);
    if (E.Overwrites)
      What += "; overwrites every element";
    if (E.WrittenCountOf || E.WrittenCount)
      What += "; a run-time count of elements";
    if (E.OnlyBinds)
      What += "; only binds a pointer whose every use is followed";
    if (R) {
      What += "; elements from `" + R->First + "`, count `" + R->Count + "`";
      if (R->Covers)
        What += ", every one written";
      else if (R->CoversIfFull)
        What += ", every one written if the message fills them";
    }
    return What;
  }

  /// Each event's elements as the planner sees them: the body walked one
  /// top-level statement at a time, so that a range may name what earlier
  /// statements declare. The events are those of P.Events, in order; an
  /// event the two walks do not agree on keeps its own (a summary from
  /// another file this report does not have, say).
  std::vector<std::optional<ElementRange>>
  statementRanges(const FunctionDecl *F) {
    const std::vector<HostEvent> &Whole = P.Events.at(F);
    std::vector<std::optional<ElementRange>> Out;
    for (const HostEvent &E : Whole)
      Out.push_back(E.Range);
    const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
    if (!Body)
      return Out;
    const ObjectTable &T = *P.Objects.at(F);
    PointsTo Facts = T.entryPointsTo();
    std::vector<HostEvent> Each;
    for (const Stmt *S : Body->body())
      for (HostEvent &E : collectHostEvents(S, T, Facts, Host))
        Each.push_back(std::move(E));
    if (Each.size() != Whole.size())
      return Out;
    for (size_t I = 0; I < Whole.size(); ++I)
      if (Each[I].Site == Whole[I].Site && Each[I].Kind == Whole[I].Kind &&
          Each[I].Mode == Whole[I].Mode &&
          Each[I].Targets.Ids == Whole[I].Targets.Ids)
        Out[I] = Each[I].Range;
    return Out;
  }

  static llvm::json::Value rangeJson(const std::optional<ElementRange> &R) {
    if (!R)
      return nullptr;
    auto Const = [](const std::optional<long long> &V) {
      return V ? llvm::json::Value(*V) : llvm::json::Value(nullptr);
    };
    return llvm::json::Object{{"first", R->First},
                              {"count", R->Count},
                              {"firstConst", Const(R->FirstConst)},
                              {"countConst", Const(R->CountConst)},
                              {"covers", R->Covers},
                              {"coversIfFull", R->CoversIfFull}};
  }

  // --- text ------------------------------------------------------------------
  void text(llvm::raw_ostream &OS) {
    OS << "Kernel-reachable graphs\n";
    for (const ReachableGraph &G : P.KernelGraphs)
      graphText(OS, G, /*Compute=*/false);
    OS << "\nCompute-reachable graphs\n";
    for (const ReachableGraph &G : P.ComputeGraphs)
      graphText(OS, G, /*Compute=*/true);

    for (const auto *K : P.Model.Kernels) {
      const KernelAccessSummary &S = P.Kernels.at(K);
      OS << "\nKernel " << K->getNameAsString() << " (line "
         << line(K->getLocation()) << ")\n";
      if (S.Buffers.empty()) {
        OS << "  no buffer parameters\n";
        continue;
      }
      Table T({"parameter", "inferred", "annotation", "writes cover the range",
               "first read", "first write"});
      for (const ParamAccess &A : S.Buffers)
        T.row({A.Param->getNameAsString(), accessName(A.Inferred),
               declaredAccessName(A.Declared), coverage(K, A),
               lineText(A.FirstRead), lineText(A.FirstWrite)});
      T.print(OS, "  ");
    }

    for (const FunctionPlan &FP : P.Functions) {
      const FunctionDecl *F = FP.Function;
      const ObjectTable &T = *P.Objects.at(F);
      OS << "\nCompute function " << functionLabel(F) << " (line "
         << line(F->getLocation()) << ")"
         << (P.Entries.count(F)    ? ", entry"
             : P.Internal.count(F) ? ", called only from compute code: "
                                     "hands its buffers back where they are"
                                   : ", called from compute code")
         << "\n";

      OS << "  buffers\n";
      Table B({"buffer", "kind", "may be the same buffer as"});
      for (const BufferObject &O : T.objects()) {
        std::string Kind = O.StaticStorage ? "static: outlives the call"
                           : O.Kind == ObjectKind::Parameter
                               ? (isa<ParmVarDecl>(O.Decl) ? "parameter"
                                                           : "captured")
                           : O.Kind == ObjectKind::ParameterMember
                               ? "member of a parameter"
                               : "created here";
        if (O.Kind == ObjectKind::Local && O.Decl)
          Kind += " (line " + std::to_string(line(O.Decl->getLocation())) + ")";
        std::vector<std::string> Names;
        for (ObjectId Other : O.MayAlias)
          Names.push_back(T.object(Other).Spelling);
        std::string Alias;
        for (const std::string &N : Names)
          Alias += (Alias.empty() ? "" : ", ") + N;
        B.row({O.Spelling, Kind, Alias.empty() ? "-" : Alias});
      }
      if (B.empty())
        OS << "    none\n";
      else
        B.print(OS, "    ");
      bool Shared = false;
      for (const BufferObject &O : T.objects())
        Shared |= !O.MayAlias.empty();
      if (Shared)
        OS << "    (a caller may pass one buffer for several of these, as in "
              "run(cc, a, a):\n     copies that depend on it are guarded and "
              "act on the actual buffer)\n";

      std::vector<std::pair<const FunctionDecl *, std::string>> Hs = helpers(F);
      if (!Hs.empty()) {
        OS << "  helpers it calls\n";
        Table H({"function", "line", "what it does to its parameters"});
        for (const auto &[Fn, Text] : Hs)
          H.row({Fn->getNameAsString(),
                 std::to_string(line(Fn->getLocation())), Text});
        H.print(OS, "    ");
      }

      OS << "  host buffer events, in program order\n";
      Table E({"line", "event", "buffers", "what"});
      std::vector<std::optional<ElementRange>> Ranges = statementRanges(F);
      for (size_t I = 0; I < P.Events.at(F).size(); ++I) {
        const HostEvent &Ev = P.Events.at(F)[I];
        E.row({std::to_string(line(Ev.Site)), hostEventName(Ev),
               objects(F, Ev.Targets), eventWhat(F, Ev, Ranges[I])});
      }
      if (E.empty())
        OS << "    none\n";
      else
        E.print(OS, "    ");

      OS << "  transfers: " << FP.staticCopies() << " static, "
         << FP.guardedCopies() << " guarded\n";
      for (const Transfer &Tr : FP.Transfers)
        OS << llvm::formatv(
            "    line {0,-4} {1}({2}{3}): {4}\n", line(Tr.Anchor),
            runtimeCallName(Tr.Kind), Tr.Buffer,
            Tr.RangeFirst.empty()
                ? std::string()
                : ", " + Tr.RangeFirst + ", " + Tr.RangeCount,
            Tr.Reason);
    }
  }

  void graphText(llvm::raw_ostream &OS, const ReachableGraph &G, bool Compute) {
    OS << "  " << functionLabel(G.Root) << " (line "
       << line(G.Root->getLocation()) << ")\n";
    Table T({"", "", ""});
    for (const CallEdge &E : G.Calls)
      T.row({functionLabel(E.Caller) + " -> " + functionLabel(E.Callee),
             "line " + std::to_string(line(E.Site)), ""});
    for (auto [Call, K] : G.Dispatches)
      T.row({"dispatches " + (K ? K->getNameAsString() : std::string("?")),
             "line " + std::to_string(line(Call)), ""});
    if (T.empty()) {
      OS << "    " << (Compute ? "calls and dispatches nothing"
                               : "calls nothing")
         << "\n";
      return;
    }
    // Without the header row.
    std::string Text;
    llvm::raw_string_ostream S(Text);
    T.print(S, "    ");
    OS << llvm::StringRef(Text).split('\n').second;
  }

  // --- JSON ------------------------------------------------------------------
  llvm::json::Array callsJson(const ReachableGraph &G) const {
    llvm::json::Array A;
    for (const CallEdge &E : G.Calls)
      A.push_back(llvm::json::Object{{"caller", functionLabel(E.Caller)},
                                     {"callee", functionLabel(E.Callee)},
                                     {"line", line(E.Site)}});
    return A;
  }

  static llvm::json::Value lineJson(unsigned L) {
    return L ? llvm::json::Value(L) : llvm::json::Value(nullptr);
  }

  llvm::json::Value json() {
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
            {"coverageDims", A.CoverageDims},
            {"coverageBound", paramName(K, A.CoverageBoundParam)},
            {"coverageGrid", gridJson(K, A)},
            {"firstReadLine", lineJson(line(A.FirstRead))},
            {"firstWriteLine", lineJson(line(A.FirstWrite))}});
      llvm::json::Array Calls;
      for (const ReachableGraph &G : P.KernelGraphs)
        if (G.Root == K)
          Calls = callsJson(G);
      Kernels.push_back(llvm::json::Object{
          {"name", K->getNameAsString()},
          {"line", line(K->getLocation())},
          {"reaches", graphJson(P.KernelGraphs, K)},
          {"calls", std::move(Calls)},
          {"buffers", std::move(Params)}});
    }
    llvm::json::Array Computes;
    for (const FunctionPlan &FP : P.Functions) {
      const FunctionDecl *F = FP.Function;
      const ObjectTable &T = *P.Objects.at(F);
      llvm::json::Array Events, Transfers, Buffers, Helpers, Dispatches, Calls;
      for (const BufferObject &O : T.objects()) {
        llvm::json::Array Aliases;
        for (ObjectId Id : O.MayAlias)
          Aliases.push_back(T.object(Id).Spelling);
        Buffers.push_back(llvm::json::Object{
            {"name", O.Spelling},
            {"kind", O.Kind == ObjectKind::Parameter ? "parameter"
                     : O.Kind == ObjectKind::ParameterMember ? "member"
                                                             : "local"},
            {"local", O.Kind == ObjectKind::Local},
            {"static", O.StaticStorage},
            {"mayAlias", std::move(Aliases)}});
      }
      std::vector<std::optional<ElementRange>> Ranges = statementRanges(F);
      for (size_t I = 0; I < P.Events.at(F).size(); ++I) {
        const HostEvent &E = P.Events.at(F)[I];
        llvm::json::Array Targets, Others;
        for (ObjectId Id : E.Targets.Ids)
          Targets.push_back(T.object(Id).Spelling);
        for (ObjectId Id : E.Others.Ids)
          Others.push_back(T.object(Id).Spelling);
        llvm::json::Object O{{"line", line(E.Site)},
                             {"kind", hostEventName(E)},
                             {"access", accessName(E.Mode)},
                             {"escapes", E.Escapes},
                             {"buffers", objects(F, E.Targets)},
                             {"targets", std::move(Targets)},
                             {"exact", E.Targets.Exact},
                             {"overwrites", E.Overwrites},
                             {"onlyBinds", E.OnlyBinds},
                             {"range", rangeJson(Ranges[I])},
                             {"what", E.What}};
        if (E.Kind == HostEventKind::Swap)
          O["with"] = std::move(Others);
        Events.push_back(std::move(O));
      }
      for (const auto &[Fn, Text] : helpers(F))
        Helpers.push_back(llvm::json::Object{
            {"name", Fn->getNameAsString()},
            {"line", line(Fn->getLocation())},
            {"planned", P.Planned.count(Fn) != 0},
            {"parameters", Text}});
      if (const ReachableGraph *G = computeGraph(F)) {
        Calls = callsJson(*G);
        for (auto [Call, K] : G->Dispatches)
          Dispatches.push_back(llvm::json::Object{
              {"kernel", K ? K->getNameAsString() : std::string("?")},
              {"line", line(Call)}});
      }
      for (const Transfer &Tr : FP.Transfers)
        Transfers.push_back(llvm::json::Object{
            {"line", line(Tr.Anchor)},
            {"call", runtimeCallName(Tr.Kind)},
            {"buffer", Tr.Buffer},
            {"first", Tr.RangeFirst.empty() ? llvm::json::Value(nullptr)
                                            : llvm::json::Value(Tr.RangeFirst)},
            {"count", Tr.RangeCount.empty() ? llvm::json::Value(nullptr)
                                            : llvm::json::Value(Tr.RangeCount)},
            {"guarded", isGuarded(Tr.Kind)},
            {"reason", Tr.Reason}});
      Computes.push_back(llvm::json::Object{
          {"name", functionLabel(F)},
          {"line", line(F->getLocation())},
          {"entry", P.Entries.count(F) != 0},
          {"internal", P.Internal.count(F) != 0},
          {"calls", std::move(Calls)},
          {"dispatches", std::move(Dispatches)},
          {"helpers", std::move(Helpers)},
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

  // --- Graphviz --------------------------------------------------------------
  static std::string escape(llvm::StringRef S) {
    std::string Out;
    for (char C : S) {
      if (C == '"' || C == '\\')
        Out += '\\';
      Out += C;
    }
    return Out;
  }

  void dot(llvm::raw_ostream &OS) {
    OS << "digraph ferry {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n"
          "  edge [fontname=\"Helvetica\", fontsize=10];\n";
    auto Id = [](const FunctionDecl *F) {
      return "\"" + escape(F->getQualifiedNameAsString()) + "\"";
    };
    for (const auto *K : P.Model.Kernels) {
      std::string Label = escape(K->getNameAsString());
      for (const ParamAccess &A : P.Kernels.at(K).Buffers)
        Label += "\\n" + escape(A.Param->getNameAsString()) + ": " +
                 accessName(A.Inferred) +
                 (A.WritesCoverRange ? " (covers)" : "");
      OS << "  " << Id(K)
         << " [shape=box, style=filled, fillcolor=\"#dbe9f6\", label=\""
         << Label << "\"];\n";
    }
    for (const ReachableGraph &G : P.KernelGraphs)
      for (const CallEdge &E : G.Calls)
        OS << "  " << Id(E.Caller) << " -> " << Id(E.Callee) << ";\n";
    std::set<const FunctionDecl *> Labelled;
    for (const ReachableGraph &G : P.ComputeGraphs) {
      OS << "  " << Id(G.Root)
         << " [shape=ellipse, style=filled, fillcolor=\"#fde8c8\"];\n";
      for (const auto &[Fn, Text] : helpers(G.Root))
        if (Labelled.insert(Fn).second && !P.Planned.count(Fn))
          OS << "  " << Id(Fn) << " [shape=ellipse, label=\""
             << escape(Fn->getNameAsString()) << "\\n" << escape(Text)
             << "\"];\n";
      for (const CallEdge &E : G.Calls)
        OS << "  " << Id(E.Caller) << " -> " << Id(E.Callee) << ";\n";
      for (auto [Call, K] : G.Dispatches)
        if (K)
          OS << "  " << Id(G.Root) << " -> "
             << Id(K->getDefinition() ? K->getDefinition() : K)
             << " [style=dashed, label=\"dispatch, line " << line(Call)
             << "\"];\n";
    }
    for (const FunctionPlan &FP : P.Functions) {
      std::string Label = FP.Function->getNameAsString() + " transfers\\n";
      for (const Transfer &T : FP.Transfers)
        if (isCopy(T.Kind))
          Label += "line " + std::to_string(line(T.Anchor)) + ": " +
                   runtimeCallName(T.Kind) + "(" + escape(T.Buffer) + ")\\l";
      OS << "  \"plan_" << FP.Function->getNameAsString()
         << "\" [shape=note, label=\"" << Label << "\"];\n  "
         << Id(FP.Function) << " -> \"plan_" << FP.Function->getNameAsString()
         << "\" [style=dotted, arrowhead=none];\n";
    }
    OS << "}\n";
  }

private:
  SourceManager &SM;
  const ProgramPlan &P;
  FunctionAccessCache Pointers;
  HostSummaryCache Host;
};

} // namespace

int runAnalyze(const CommandInputs &In, AnalyzeFormat Format,
               const std::vector<std::string> &Summaries) {
  std::string Out;
  bool Ok = runOnFile(In.Database, In.File, [&](ParsedUnit &Unit) {
    std::optional<TargetSummaries> Target =
        loadTargetSummaries(Unit.Context, In.File, Summaries);
    ProgramPlan Plan = planProgram(Unit.Context, Target ? &*Target : nullptr);
    if (Unit.Context.getDiagnostics().hasErrorOccurred())
      return false;
    lintProgram(Unit.Context, Plan);
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
