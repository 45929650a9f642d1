// Reachable graphs: from a compute function, the functions with bodies it
// calls (transitively) and the kernels it dispatches; from a kernel, every
// function it calls.

#include "TestSupport.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace ferry;
using namespace ferry::test;

static std::vector<std::string> names(const ReachableGraph &G) {
  std::vector<std::string> Out;
  for (const clang::FunctionDecl *F : G.Functions)
    Out.push_back(F->getNameAsString());
  return Out;
}

static std::vector<std::string> edges(const ReachableGraph &G) {
  std::vector<std::string> Out;
  for (const CallEdge &E : G.Calls)
    Out.push_back(E.Caller->getNameAsString() + "->" +
                  E.Callee->getNameAsString());
  return Out;
}

TEST_CASE("reachable graphs of kernels and compute functions", "[graphs]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
#include <algorithm>
#include <vector>

static float square(float v) { return v * v; }
static float cube(float v) { return square(v) * v; }
static float twice(float v) { return v + v; }
namespace math { struct Ops { static float neg(float v) { return -v; } }; }
template <class T> T pick(T a, T b) { return a < b ? a : b; }

FERRY_KERNEL void k1(ferry::KernelContext kc, float *a) {
  a[kc.x] = cube(a[kc.x]) + math::Ops::neg(1.0f);
}
FERRY_KERNEL void k2(ferry::KernelContext kc, float *a) {
  a[kc.x] = twice(pick(a[kc.x], 2.0f)) + cube(1.0f);
}
FERRY_KERNEL void k3(ferry::KernelContext kc, float *a) { a[kc.x] = 0.0f; }

void invisible(ferry::Buffer<float> &b);
static void show(const ferry::Buffer<float> &b) { (void)b[0]; }
static void report(const ferry::Buffer<float> &b) { show(b); }
static void stepTwice(ferry::ComputeContext &cc, ferry::Buffer<float> &b) {
  cc.dispatch(k2, ferry::Range(b.size()), b);
  cc.dispatch(k3, ferry::Range(b.size()), b);
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &b, int n) {
  for (int i = 0; i < n; ++i) {
    cc.dispatch(k1, ferry::Range(b.size()), b);
    report(b);
  }
  stepTwice(cc, b);
  invisible(b);
  std::sort(b.begin(), b.end());
  auto later = [&] { show(b); };
  cc.dispatch(&k3, ferry::Range(b.size()), b);
}
FERRY_COMPUTE void other(ferry::ComputeContext &cc, ferry::Buffer<float> &b) {
  cc.dispatch(k3, ferry::Range(b.size()), b);
}
)cpp");

  ProgramModel M = S.model();
  REQUIRE(M.Kernels.size() == 3);
  REQUIRE(M.ComputeFunctions.size() == 2);
  CHECK(M.ComputeFunctions[0]->getName() == "run");

  ReachableGraph K1 = kernelReachableGraph(S.function("k1"));
  CHECK(names(K1) == std::vector<std::string>{"k1", "cube", "neg", "square"});
  CHECK(edges(K1) == std::vector<std::string>{"k1->cube", "k1->neg",
                                              "cube->square"});
  CHECK(K1.Dispatches.empty());

  // Template instantiations and functions shared with other kernels.
  ReachableGraph K2 = kernelReachableGraph(S.function("k2"));
  CHECK(names(K2) ==
        std::vector<std::string>{"k2", "twice", "pick", "cube", "square"});
  CHECK(names(kernelReachableGraph(S.function("k3"))) ==
        std::vector<std::string>{"k3"});

  // Compute graph: helpers with bodies (not the invisible one, not std::,
  // not the lambda's callees), and dispatches in source order with the
  // dispatching function's own.
  ReachableGraph Run = computeReachableGraph(S.function("run"));
  CHECK(names(Run) ==
        std::vector<std::string>{"run", "report", "stepTwice", "show"});
  CHECK(edges(Run) == std::vector<std::string>{"run->report", "run->stepTwice",
                                               "report->show"});
  std::vector<std::string> Dispatched;
  for (auto [Call, K] : Run.Dispatches)
    Dispatched.push_back(K ? K->getNameAsString() : "?");
  CHECK(Dispatched == std::vector<std::string>{"k1", "k3", "k2", "k3"});
  CHECK(S.line(Run.Dispatches[0].first->getBeginLoc()) ==
        S.lineOf("cc.dispatch(k1"));
  CHECK(Run.Calls[0].Site != nullptr);
  CHECK(S.line(Run.Calls[0].Site->getBeginLoc()) == S.lineOf("report(b);"));

  CHECK(dispatchesDirectly(S.function("stepTwice")));
  CHECK_FALSE(dispatchesDirectly(S.function("report")));
  CHECK(directCalls(S.function("report")).size() == 1);

  ReachableGraph Other = computeReachableGraph(S.function("other"));
  CHECK(names(Other) == std::vector<std::string>{"other"});
  REQUIRE(Other.Dispatches.size() == 1);
}

TEST_CASE("a recursive helper appears once", "[graphs]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int even(int n);
static int odd(int n) { return n == 0 ? 0 : even(n - 1); }
static int even(int n) { return n == 0 ? 1 : odd(n - 1); }
FERRY_KERNEL void k(ferry::KernelContext kc, int *a) { a[kc.x] = fact(3) + odd(3); }
)cpp");
  ReachableGraph G = kernelReachableGraph(S.function("k"));
  CHECK(names(G) == std::vector<std::string>{"k", "fact", "odd", "even"});
  CHECK(edges(G) == std::vector<std::string>{"k->fact", "k->odd", "fact->fact",
                                             "odd->even", "even->odd"});
}

TEST_CASE("compiler-provided members are not in the graphs", "[graphs]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
struct P { float x, y; };
struct Q { float v; Q &operator=(const Q &) = default; };
FERRY_KERNEL void k(ferry::KernelContext kc, const P *in, P *out, const Q *qi, Q *qo) {
  out[kc.x] = in[kc.x];
  qo[kc.x] = qi[kc.x];
}
)cpp");
  CHECK(names(kernelReachableGraph(S.function("k"))) ==
        std::vector<std::string>{"k"});
}
