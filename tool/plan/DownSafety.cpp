#include "plan/DownSafety.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <utility>
#include <vector>

using namespace clang;

namespace ferry {

struct DownSafety::Graph {
  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<ParentMap> Parents;
  /// The CFG splits `int a = 1, b = 2;` into one DeclStmt per variable that
  /// the AST does not hold: each maps to the statement it came from.
  llvm::DenseMap<const Stmt *, const Stmt *> SplitDecls;
  /// Per block (by ID): every statement one of its elements, its terminator
  /// or the loop it closes lies in. Empty for a block that only joins paths.
  std::vector<llvm::SmallPtrSet<const Stmt *, 16>> Within;

  const Stmt *parent(const Stmt *S) const {
    if (auto It = SplitDecls.find(S); It != SplitDecls.end())
      return It->second;
    return Parents->getParent(S);
  }

  void addWithAncestors(unsigned Block, const Stmt *S) {
    for (; S; S = parent(S))
      if (!Within[Block].insert(S).second)
        break; // its ancestors are in already
  }

  bool in(const CFGBlock *B, const Stmt *S) const {
    return Within[B->getBlockID()].count(S) != 0;
  }
  bool joinsOnly(const CFGBlock *B) const {
    return Within[B->getBlockID()].empty();
  }
};

DownSafety::DownSafety(const FunctionDecl *F, ASTContext &Ctx)
    : G(std::make_unique<Graph>()) {
  Stmt *Body = F->getBody();
  if (!Body)
    return;
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  G->Cfg = CFG::buildCFG(F, Body, &Ctx, Options);
  if (!G->Cfg)
    return;
  G->Parents = std::make_unique<ParentMap>(Body);
  for (auto [Split, Original] : G->Cfg->synthetic_stmts())
    G->SplitDecls[Split] = Original;
  G->Within.resize(G->Cfg->getNumBlockIDs());
  for (const CFGBlock *B : *G->Cfg) {
    unsigned Id = B->getBlockID();
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        G->addWithAncestors(Id, S->getStmt());
    G->addWithAncestors(Id, B->getTerminatorStmt());
    G->addWithAncestors(Id, B->getLoopTarget());
    G->addWithAncestors(Id, B->getLabel());
  }
}

DownSafety::~DownSafety() = default;

bool DownSafety::everyPathUses(const Stmt *Loop,
                               const std::set<const Stmt *> &Uses,
                               bool FirstTripRuns) const {
  if (!G->Cfg || Uses.empty())
    return false;
  const CFGBlock *Exit = &G->Cfg->getExit();
  const CFGBlock *FunctionEntry = &G->Cfg->getEntry();
  auto InLoop = [&](const CFGBlock *B) { return G->in(B, Loop); };
  auto MeetsUse = [&](const CFGBlock *B) {
    for (const Stmt *U : Uses)
      if (G->in(B, U))
        return true;
    return false;
  };

  // Where control enters the loop: its blocks reached from outside it
  // (through blocks that only join paths).
  auto FromOutside = [&](const CFGBlock *Pred) {
    llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
    std::vector<const CFGBlock *> Work{Pred};
    while (!Work.empty()) {
      const CFGBlock *B = Work.back();
      Work.pop_back();
      if (!B || !Seen.insert(B).second)
        continue;
      if (B == FunctionEntry || (!G->joinsOnly(B) && !InLoop(B)))
        return true;
      if (G->joinsOnly(B))
        for (const CFGBlock *P : B->preds())
          Work.push_back(P);
    }
    return false;
  };

  // The loop's own test, for `for` and `while`: before the first trip.
  const bool TestFirst = isa<ForStmt>(Loop) || isa<WhileStmt>(Loop) ||
                         isa<CXXForRangeStmt>(Loop);
  // (block, whether no trip has been completed yet on this path)
  std::vector<std::pair<const CFGBlock *, bool>> Work;
  for (const CFGBlock *B : *G->Cfg)
    if (!G->joinsOnly(B) && InLoop(B))
      for (const CFGBlock *P : B->preds())
        if (P && FromOutside(P)) {
          Work.push_back({B, true});
          break;
        }
  if (Work.empty())
    return false;

  llvm::SmallPtrSet<const CFGBlock *, 32> SeenFirst, SeenLater;
  while (!Work.empty()) {
    auto [B, First] = Work.back();
    Work.pop_back();
    if (!B)
      continue;
    if (!(First ? SeenFirst : SeenLater).insert(B).second)
      continue;
    if (B == Exit)
      return false; // the function returns without the use
    if (G->joinsOnly(B)) {
      for (const CFGBlock *S : B->succs())
        Work.push_back({S, First});
      continue;
    }
    if (!InLoop(B))
      return false; // left the loop without the use
    if (MeetsUse(B))
      continue; // this path copies, and uses what it copied
    // The loop's test before the first trip passes when the loop surely
    // runs once: only its true edge is taken then.
    if (TestFirst && First && FirstTripRuns &&
        B->getTerminatorStmt() == Loop) {
      if (B->succ_size() > 0)
        Work.push_back({*B->succ_begin(), false});
      continue;
    }
    for (const CFGBlock *S : B->succs())
      Work.push_back({S, First && B->getTerminatorStmt() != Loop});
  }
  return true;
}

} // namespace ferry
