// The step graph (Clang's CFG contracted onto the planner's steps) and
// down-safety on it, as data: which statements are one step, which edges
// join them, which loops get an entry, and where a copy may leave a loop.
#include "../analyses/TestSupport.h"

#include "analyses/LoopShape.h"
#include "plan/DownSafety.h"
#include "plan/StepGraph.h"

#include <catch2/catch.hpp>

using namespace clang;
using ferry::test::Source;

namespace {

const char *Prelude = R"(
#include <ferry/ferry.hpp>
#include <cstdio>
#include <cstdlib>
using ferry::Buffer;
using ferry::ComputeContext;
using ferry::KernelContext;
using ferry::Range;
FERRY_KERNEL void rw(KernelContext kc, int *v) { v[kc.x] += 1; }
)";

struct Graph {
  ferry::PlanningUnits Units;
  std::optional<ferry::StepGraph> G;
};

Graph graphOf(Source &S, const std::string &Function) {
  Graph Out;
  const FunctionDecl *F = S.function(Function);
  static const std::set<const FunctionDecl *> NonePlanned;
  Out.Units = ferry::findPlanningUnits(F, S.context(), NonePlanned,
                                       [](const Stmt *) { return false; });
  std::pair<SourceLocation, std::string> Error;
  Out.G = ferry::StepGraph::build(F, S.context(), Out.Units, Error);
  REQUIRE(Out.G);
  return Out;
}

/// A readable name for a step: its kind and the first line it plans.
std::string name(Source &S, const ferry::Step &St) {
  switch (St.Kind) {
  case ferry::StepKind::Entry:
    return "entry";
  case ferry::StepKind::FallOffEnd:
    return "end";
  case ferry::StepKind::LoopEntry:
    return "loop entry " + std::to_string(S.line(St.Loop->getBeginLoc()));
  case ferry::StepKind::Dispatch:
    return "dispatch " + std::to_string(S.line(St.Root->getBeginLoc()));
  case ferry::StepKind::Return:
    return "return " + std::to_string(S.line(St.Root->getBeginLoc()));
  default:
    return "host " + std::to_string(S.line(St.Root->getBeginLoc()));
  }
}

/// "a -> b" for every edge of the graph, in step order.
std::set<std::string> edges(Source &S, const ferry::StepGraph &G) {
  std::set<std::string> Out;
  for (const ferry::Step &St : G.Steps)
    for (unsigned T : St.Succs)
      Out.insert(name(S, St) + " -> " + name(S, G.Steps[T]));
  return Out;
}

std::string line(Source &S, const char *Marker) {
  return std::to_string(S.lineOf(Marker));
}

} // namespace

TEST_CASE("a host loop is one step; a dispatch is another", "[plan]") {
  Source S(std::string(Prelude) + R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int n) {
  int sum = 0;                                             // SUM
  for (int i = 0; i < n; ++i)                              // HOSTLOOP
    sum += v[i];
  cc.dispatch(rw, Range(v.size()), v);                     // DISPATCH
}
)");
  Graph G = graphOf(S, "run");
  CHECK(edges(S, *G.G) ==
        std::set<std::string>{
            "entry -> host " + line(S, "// SUM"),
            "host " + line(S, "// SUM") + " -> host " + line(S, "// HOSTLOOP"),
            "host " + line(S, "// HOSTLOOP") + " -> dispatch " +
                line(S, "// DISPATCH"),
            "dispatch " + line(S, "// DISPATCH") + " -> end"});
  CHECK(G.G->Loops.empty());
}

TEST_CASE("a loop holding a dispatch is planned inside, behind an entry step",
          "[plan]") {
  Source S(std::string(Prelude) + R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int n) {
  for (int r = 0;                                          // INIT
       r < n;                                              // TEST
       ++r)                                                // INC
    cc.dispatch(rw, Range(v.size()), v);                   // DISPATCH
}
)");
  Graph G = graphOf(S, "run");
  const std::string Init = "host " + line(S, "// INIT"),
                    Entry = "loop entry " + line(S, "// INIT"),
                    Test = "host " + line(S, "// TEST"),
                    Inc = "host " + line(S, "// INC"),
                    Dispatch = "dispatch " + line(S, "// DISPATCH");
  CHECK(edges(S, *G.G) ==
        std::set<std::string>{"entry -> " + Init, Init + " -> " + Entry,
                              Entry + " -> " + Test, Test + " -> " + Dispatch,
                              Test + " -> end", Dispatch + " -> " + Inc,
                              Inc + " -> " + Test});
  REQUIRE(G.G->Loops.size() == 1);
  const ferry::LoopSteps &L = G.G->Loops[0];
  REQUIRE(L.Test);
  REQUIRE(L.TestPassed);
  CHECK(name(S, G.G->Steps[*L.Test]) == Test);
  CHECK(name(S, G.G->Steps[*L.TestPassed]) == Dispatch);
  std::set<std::string> Members;
  for (unsigned I = 0; I < G.G->Steps.size(); ++I)
    if (L.Members[I])
      Members.insert(name(S, G.G->Steps[I]));
  CHECK(Members == std::set<std::string>{Test, Dispatch, Inc});
}

TEST_CASE("returns, calls that do not return and dead code end paths",
          "[plan]") {
  Source S(std::string(Prelude) + R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int n) {
  if (n < 0)                                               // BAD
    std::exit(1);                                          // EXIT
  if (n == 0)                                              // ZERO
    return;                                                // RETURN
  cc.dispatch(rw, Range(v.size()), v);                     // DISPATCH
  if (4 > 2)                                               // CONSTANT
    return;                                                // ALWAYS
  cc.dispatch(rw, Range(v.size()), v);                     // DEAD
}
)");
  Graph G = graphOf(S, "run");
  std::set<std::string> E = edges(S, *G.G);
  // exit() and return reach no end step (the return plans its own copies).
  CHECK(E.count("host " + line(S, "// EXIT") + " -> end") == 0);
  CHECK(E.count("host " + line(S, "// EXIT") + " -> host " +
                line(S, "// ZERO")) == 0);
  CHECK(E.count("return " + line(S, "// RETURN") + " -> end") == 0);
  // A constant condition's branch not taken is no edge: nothing reaches
  // the second dispatch, and only it (no path) falls off the end.
  for (const std::string &Edge : E) {
    INFO(Edge);
    CHECK(Edge.find("-> dispatch " + line(S, "// DEAD")) == std::string::npos);
    if (Edge.find("-> end") != std::string::npos)
      CHECK(Edge == "dispatch " + line(S, "// DEAD") + " -> end");
  }
}

namespace {
bool downSafe(const char *Body) {
  Source S(std::string(Prelude) + Body);
  Graph G = graphOf(S, "run");
  REQUIRE(G.G->Loops.size() == 1);
  const ferry::LoopSteps &L = G.G->Loops[0];
  std::set<unsigned> Uses;
  for (unsigned I = 0; I < G.G->Steps.size(); ++I)
    if (G.G->Steps[I].Kind == ferry::StepKind::Dispatch && L.Members[I])
      Uses.insert(I);
  return ferry::everyPathUses(*G.G, L, Uses,
                              ferry::runsAtLeastOnce(L.Loop, S.context()));
}
} // namespace

TEST_CASE("a copy may leave a loop only where every path into it uses it",
          "[plan]") {
  CHECK(downSafe(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  for (int r = 0; r < 4; ++r)
    cc.dispatch(rw, Range(v.size()), v);
})"));
  CHECK_FALSE(downSafe(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int n) {
  for (int r = 0; r < n; ++r)
    cc.dispatch(rw, Range(v.size()), v);
})"));
  CHECK(downSafe(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  for (;;) {
    cc.dispatch(rw, Range(v.size()), v);
    break;
  }
})"));
  CHECK_FALSE(downSafe(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int stop) {
  int r = 0;
  do {
    if (r == stop)
      break;
    cc.dispatch(rw, Range(v.size()), v);
  } while (++r < 4);
})"));
  CHECK(downSafe(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int stop) {
  int r = 0;
  do {
    cc.dispatch(rw, Range(v.size()), v);
    if (r == stop)
      break;
  } while (++r < 4);
})"));
}
