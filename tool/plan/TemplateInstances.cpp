#include "plan/TemplateInstances.h"

#include "model/Diagnostics.h"
#include "model/Naming.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <tuple>

using namespace clang;

namespace ferry {

namespace {

/// A statement's place in the text: the same in every instantiation.
using Place = std::tuple<unsigned, unsigned, unsigned>;

Place placeOf(const Stmt *S) {
  return {S->getBeginLoc().getRawEncoding(), S->getEndLoc().getRawEncoding(),
          static_cast<unsigned>(S->getStmtClass())};
}

/// The statements of one instantiation's body by place, so that lines
/// another instantiation anchors on its own statements go to the same
/// statement of this one (the rewriter groups lines by their anchor).
class Places : public RecursiveASTVisitor<Places> {
public:
  std::map<Place, const Stmt *> Of;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitStmt(Stmt *S) {
    Of.emplace(placeOf(S), S);
    return true;
  }
};

/// What makes two instantiations' lines the same line.
using LineKey = std::tuple<int, const Stmt *, int, std::string, std::string,
                           std::string, std::string, bool>;

LineKey keyOf(const Transfer &T) {
  return {static_cast<int>(T.Where), T.Anchor, static_cast<int>(T.Kind),
          T.Buffer,    T.Count,  T.RangeFirst,
          T.RangeCount, T.EachElement};
}

/// The guarded form of a line: right whatever the run-time state is.
TransferKind guarded(TransferKind K) {
  switch (K) {
  case TransferKind::ToDevice:
    return TransferKind::ToDeviceIfStale;
  case TransferKind::FromDevice:
    return TransferKind::FromDeviceIfStale;
  default:
    return K;
  }
}

bool sameCoverage(const LaunchArgument &A, const LaunchArgument &B) {
  return A.Wrapper == B.Wrapper && A.CoverageUnknown == B.CoverageUnknown &&
         A.CoverageFirst == B.CoverageFirst &&
         (A.CoverageBound == nullptr) == (B.CoverageBound == nullptr) &&
         A.Grid.has_value() == B.Grid.has_value();
}

FunctionPlan merged(ASTContext &Ctx, std::vector<FunctionPlan *> Instances) {
  FunctionPlan Result = *Instances.front();
  Places First;
  First.TraverseStmt(const_cast<Stmt *>(Result.Function->getBody()));
  auto Reanchored = [&](Transfer T) {
    if (T.Anchor) {
      auto It = First.Of.find(placeOf(T.Anchor));
      if (It != First.Of.end())
        T.Anchor = It->second;
    }
    return T;
  };

  // Lines: in the order the first instantiation has them, then the others'.
  std::vector<Transfer> Lines;
  std::map<LineKey, unsigned> Count;
  for (FunctionPlan *P : Instances) {
    std::set<LineKey> Seen;
    for (const Transfer &T0 : P->Transfers) {
      Transfer T = Reanchored(T0);
      LineKey K = keyOf(T);
      if (!Seen.insert(K).second)
        continue;
      if (Count[K]++ == 0)
        Lines.push_back(T);
    }
  }
  Result.Transfers.clear();
  std::set<LineKey> Written;
  for (Transfer T : Lines) {
    if (Count[keyOf(T)] != Instances.size()) {
      T.Kind = guarded(T.Kind);
      T.Reason += " (planned for some instantiations)";
    }
    if (Written.insert(keyOf(T)).second)
      Result.Transfers.push_back(T);
  }

  // Dispatches, by where they are written; one an `if constexpr` leaves
  // to some instantiations only is still rewritten.
  std::vector<std::vector<const DispatchPlan *>> Groups;
  std::map<unsigned, size_t> GroupAt;
  for (FunctionPlan *P : Instances)
    for (const DispatchPlan &D : P->Dispatches) {
      unsigned Loc = D.Call->getBeginLoc().getRawEncoding();
      auto [It, New] = GroupAt.emplace(Loc, Groups.size());
      if (New)
        Groups.emplace_back();
      Groups[It->second].push_back(&D);
    }
  Result.Dispatches.clear();
  for (const std::vector<const DispatchPlan *> &Same : Groups) {
    Result.Dispatches.push_back(*Same.front());
    DispatchPlan &D = Result.Dispatches.back();
    // The kernels the instantiations dispatch here, each once: more than
    // one, and the launch looks its name up at run time.
    std::vector<std::pair<std::string, std::string>> Names;
    std::set<std::string> Named;
    for (const DispatchPlan *O : Same) {
      std::vector<std::pair<std::string, std::string>> Own = O->NameTable;
      if (Own.empty())
        Own.push_back({spelledFromGlobalScope(O->Kernel), O->OpenCLName});
      for (const auto &Entry : Own)
        if (Named.insert(Entry.second).second)
          Names.push_back(Entry);
    }
    if (Names.size() > 1)
      D.NameTable = Names;
    for (size_t I = 0; I < D.Arguments.size(); ++I) {
      LaunchArgument &A = D.Arguments[I];
      for (const DispatchPlan *O : Same) {
        if (I >= O->Arguments.size())
          continue;
        const LaunchArgument &B = O->Arguments[I];
        if (A.CastTo != B.CastTo) {
          reportError(Ctx, A.Arg->getExprLoc(),
                      "the instantiations of this template convert this "
                      "kernel argument to different types; pass a value of "
                      "the kernel parameter's type");
          A.CastTo.clear();
        }
        if (!A.Wrapper.empty() && !sameCoverage(A, B)) {
          A.Wrapper = "rw";
          A.CoverageBound = nullptr;
          A.Grid.reset();
          A.CoverageUnknown = false;
          A.CoverageFirst.clear();
        }
      }
    }
  }
  return Result;
}

} // namespace

void mergeTemplateInstances(ASTContext &Ctx,
                            std::vector<FunctionPlan> &Plans) {
  std::map<const FunctionDecl *, std::vector<size_t>> ByPattern;
  for (size_t I = 0; I < Plans.size(); ++I)
    if (const FunctionDecl *Pattern =
            Plans[I].Function->getTemplateInstantiationPattern())
      ByPattern[Pattern].push_back(I);
  std::vector<bool> Drop(Plans.size());
  for (auto &[Pattern, Indices] : ByPattern) {
    if (Indices.size() < 2)
      continue;
    std::vector<FunctionPlan *> Instances;
    for (size_t I : Indices)
      Instances.push_back(&Plans[I]);
    FunctionPlan One = merged(Ctx, Instances);
    Plans[Indices.front()] = std::move(One);
    for (size_t K = 1; K < Indices.size(); ++K)
      Drop[Indices[K]] = true;
  }
  std::vector<FunctionPlan> Kept;
  for (size_t I = 0; I < Plans.size(); ++I)
    if (!Drop[I])
      Kept.push_back(std::move(Plans[I]));
  Plans = std::move(Kept);
}

} // namespace ferry
