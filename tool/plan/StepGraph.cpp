#include "plan/StepGraph.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <functional>
#include <set>

using namespace clang;

namespace ferry {

namespace {

constexpr int NoStep = -1;      ///< an element outside the body's tree
constexpr int PassesOn = -2;    ///< an implicit piece that has no step
constexpr int Lost = -3;        ///< a statement no unit holds: a bug

class Builder {
public:
  Builder(const FunctionDecl *F, ASTContext &Ctx, const PlanningUnits &Units,
          std::pair<SourceLocation, std::string> &Error)
      : F(F), Ctx(Ctx), Units(Units), Error(Error) {}

  std::optional<StepGraph> run() {
    Stmt *Body = F->getBody();
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Cfg = CFG::buildCFG(F, Body, &Ctx, Options);
    if (!Cfg) {
      Error = {F->getLocation(),
               "Clang cannot build the control-flow graph of '" +
                   F->getNameAsString() + "', which Ferry plans on"};
      return std::nullopt;
    }
    Parents = std::make_unique<ParentMap>(Body);
    for (auto [Split, Original] : Cfg->synthetic_stmts())
      SplitDecls[Split] = Original;

    G.Steps.resize(Units.Units.size() + 2);
    G.Steps[StepGraph::EntryStep].Kind = StepKind::Entry;
    G.Steps[StepGraph::FallOffEndStep].Kind = StepKind::FallOffEnd;
    G.Steps[StepGraph::FallOffEndStep].Where = Placement::EndOfBlock;
    G.Steps[StepGraph::FallOffEndStep].Anchor = Body;
    G.Steps[StepGraph::FallOffEndStep].Order =
        static_cast<unsigned>(Units.Units.size());
    for (size_t I = 0; I < Units.Units.size(); ++I)
      static_cast<Unit &>(G.Steps[I + 2]) = Units.Units[I];

    if (!stepsOfBlocks())
      return std::nullopt;
    connectBlocks();
    for (const Stmt *L : Units.Loops)
      addLoop(L);
    // Once every loop's entry is in place (an inner loop's may follow an
    // outer loop's test).
    for (LoopSteps &LS : G.Loops)
      findTest(LS);
    return std::move(G);
  }

private:
  const Stmt *parent(const Stmt *S) const {
    if (auto It = SplitDecls.find(S); It != SplitDecls.end())
      return It->second;
    return Parents->getParent(S);
  }

  /// The step an element of the CFG belongs to.
  int stepOf(const Stmt *S) const {
    for (const Stmt *X = S; X; X = parent(X)) {
      if (auto It = Units.RootOf.find(X); It != Units.RootOf.end())
        return static_cast<int>(It->second + 2);
      if (Units.Transparent.count(X))
        return PassesOn;
      if (X == F->getBody())
        return Lost;
    }
    return NoStep; // in a default argument or initializer, say
  }

  /// Each block's steps in order; false (with an error) on a statement that
  /// belongs to no step.
  bool stepsOfBlocks() {
    StepsOf.resize(Cfg->getNumBlockIDs());
    for (const CFGBlock *B : *Cfg) {
      std::vector<unsigned> &Seq = StepsOf[B->getBlockID()];
      for (const CFGElement &E : *B) {
        std::optional<CFGStmt> S = E.getAs<CFGStmt>();
        if (!S)
          continue;
        int Step = stepOf(S->getStmt());
        if (Step == Lost) {
          Error = {S->getStmt()->getBeginLoc(),
                   "internal error: Ferry's planner has no step for this "
                   "statement; please report it"};
          return false;
        }
        if (Step < 0)
          continue;
        if (Seq.empty() || Seq.back() != static_cast<unsigned>(Step))
          Seq.push_back(static_cast<unsigned>(Step));
      }
      for (size_t I = 1; I < Seq.size(); ++I)
        addEdge(Seq[I - 1], Seq[I]);
    }
    return true;
  }

  /// The first steps reached from block B's start: its own first step, or
  /// through blocks without steps, theirs. `From` is the step control
  /// leaves: a return (which plans its exit copies itself) and a call that
  /// does not return reach no FallOffEnd.
  void firstStepsOf(const CFGBlock *B, bool ToExit, std::set<unsigned> &Out,
                    std::set<const CFGBlock *> &Seen) const {
    if (!B || !Seen.insert(B).second)
      return;
    if (B == &Cfg->getExit()) {
      if (ToExit)
        Out.insert(StepGraph::FallOffEndStep);
      return;
    }
    const std::vector<unsigned> &Seq = StepsOf[B->getBlockID()];
    if (!Seq.empty()) {
      Out.insert(Seq.front());
      return;
    }
    for (const CFGBlock *S : B->succs())
      firstStepsOf(S, ToExit, Out, Seen);
  }

  void connectBlocks() {
    for (const CFGBlock *B : *Cfg) {
      const std::vector<unsigned> &Seq = StepsOf[B->getBlockID()];
      unsigned From;
      if (B == &Cfg->getEntry())
        From = StepGraph::EntryStep;
      else if (!Seq.empty())
        From = Seq.back();
      else
        continue;
      bool ToExit = G.Steps[From].Kind != StepKind::Return &&
                    !B->hasNoReturnElement();
      std::set<unsigned> Targets;
      std::set<const CFGBlock *> Seen;
      for (const CFGBlock *S : B->succs())
        firstStepsOf(S, ToExit, Targets, Seen);
      for (unsigned T : Targets)
        if (T != From)
          addEdge(From, T);
    }
  }

  /// Whether the statement X lies in what loop L repeats (its test,
  /// increment, body), not in its initialisers.
  bool repeatedBy(const Stmt *L, const Stmt *X) const {
    for (const Stmt *C = X; C; C = parent(C)) {
      const Stmt *P = parent(C);
      if (P != L)
        continue;
      if (const auto *For = dyn_cast<ForStmt>(L))
        return C != For->getInit();
      if (const auto *RF = dyn_cast<CXXForRangeStmt>(L))
        return C != RF->getInit() && C != RF->getRangeStmt();
      return true;
    }
    return false;
  }

  bool repeats(const Stmt *L, const Step &S) const {
    if (S.Kind == StepKind::Entry || S.Kind == StepKind::FallOffEnd)
      return false;
    if (S.Kind == StepKind::LoopEntry)
      return S.Loop != L && repeatedBy(L, S.Loop);
    return repeatedBy(L, S.Root);
  }

  void addLoop(const Stmt *L) {
    LoopSteps LS;
    LS.Loop = L;
    for (size_t I = 0; I < G.Steps.size(); ++I)
      if (G.Steps[I].Kind == StepKind::LoopEntry && G.Steps[I].Loop == L)
        LS.Entry = static_cast<unsigned>(I);
    LS.Members.resize(G.Steps.size());
    for (size_t I = 0; I < G.Steps.size(); ++I)
      LS.Members[I] = repeats(L, G.Steps[I]);
    for (const LoopSteps &Outer : G.Loops)
      if (repeatedBy(Outer.Loop, L))
        ++LS.Depth;
    // Every edge into the loop goes through its entry step (outer loops
    // first, so that an inner loop's entry sits inside the outer one's).
    std::vector<std::pair<unsigned, unsigned>> Into;
    for (size_t U = 0; U < G.Steps.size(); ++U)
      if (!LS.Members[U] && U != LS.Entry)
        for (unsigned V : G.Steps[U].Succs)
          if (LS.Members[V])
            Into.push_back({static_cast<unsigned>(U), V});
    for (auto [U, V] : Into) {
      removeEdge(U, V);
      addEdge(U, LS.Entry);
      addEdge(LS.Entry, V);
    }
    G.Loops.push_back(std::move(LS));
  }

  /// The loop's test, and where it leads when it passes.
  void findTest(LoopSteps &LS) const {
    const Stmt *L = LS.Loop, *Test = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(L))
      Test = For->getCond();
    else if (const auto *W = dyn_cast<WhileStmt>(L))
      Test = W->getCond();
    else if (const auto *RF = dyn_cast<CXXForRangeStmt>(L))
      Test = RF->getCond();
    auto It = Test ? Units.RootOf.find(Test) : Units.RootOf.end();
    if (It == Units.RootOf.end())
      return;
    LS.Test = It->second + 2;
    for (unsigned S : G.Steps[*LS.Test].Succs)
      if (LS.Members[S]) {
        LS.TestPassed = S;
        break;
      }
  }

  void addEdge(unsigned From, unsigned To) {
    std::vector<unsigned> &S = G.Steps[From].Succs;
    if (std::find(S.begin(), S.end(), To) != S.end())
      return;
    S.push_back(To);
    G.Steps[To].Preds.push_back(From);
  }
  void removeEdge(unsigned From, unsigned To) {
    std::vector<unsigned> &S = G.Steps[From].Succs;
    S.erase(std::remove(S.begin(), S.end(), To), S.end());
    std::vector<unsigned> &P = G.Steps[To].Preds;
    P.erase(std::remove(P.begin(), P.end(), From), P.end());
  }

  const FunctionDecl *F;
  ASTContext &Ctx;
  const PlanningUnits &Units;
  std::pair<SourceLocation, std::string> &Error;
  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<ParentMap> Parents;
  llvm::DenseMap<const Stmt *, const Stmt *> SplitDecls;
  std::vector<std::vector<unsigned>> StepsOf;
  StepGraph G;
};

} // namespace

std::optional<StepGraph>
StepGraph::build(const FunctionDecl *F, ASTContext &Ctx,
                 const PlanningUnits &Units,
                 std::pair<SourceLocation, std::string> &Error) {
  return Builder(F, Ctx, Units, Error).run();
}

std::vector<unsigned> StepGraph::reversePostOrder() const {
  std::vector<unsigned> Post;
  std::vector<char> Seen(Steps.size());
  // Iterative DFS: (step, next successor to visit).
  std::vector<std::pair<unsigned, size_t>> Stack{{EntryStep, 0}};
  Seen[EntryStep] = 1;
  while (!Stack.empty()) {
    auto &[S, Next] = Stack.back();
    if (Next < Steps[S].Succs.size()) {
      unsigned T = Steps[S].Succs[Next++];
      if (!Seen[T]) {
        Seen[T] = 1;
        Stack.push_back({T, 0});
      }
      continue;
    }
    Post.push_back(S);
    Stack.pop_back();
  }
  return {Post.rbegin(), Post.rend()};
}

} // namespace ferry
