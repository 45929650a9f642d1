// The transfer plan as plain data: which transfers, of which kind, where,
// for in-memory sources, without running the rewriter. The end-to-end
// scenarios (test/scenarios) check the same decisions by their effect.
#include "../analyses/TestSupport.h"

#include "plan/ProgramPlan.h"

#include "clang/AST/ParentMapContext.h"

#include <catch2/catch.hpp>

using namespace clang;
using ferry::test::Source;

namespace {

const char *placementName(ferry::Placement P) {
  switch (P) {
  case ferry::Placement::BeforeStmt:
    return "before";
  case ferry::Placement::EndOfBlock:
    return "end of block";
  case ferry::Placement::InCondition:
    return "in condition";
  }
  return "?";
}

/// "toDevice(values) before line 12" for each transfer of `Function`, in
/// the order the planner recorded them.
std::vector<std::string> transfers(Source &S, const std::string &Function) {
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  const FunctionDecl *F = S.function(Function);
  std::vector<std::string> Out;
  for (const ferry::FunctionPlan &FP : Plan.Functions) {
    if (FP.Function != F)
      continue;
    for (const ferry::Transfer &T : FP.Transfers) {
      SourceLocation At = T.Where == ferry::Placement::EndOfBlock
                              ? cast<CompoundStmt>(T.Anchor)->getRBracLoc()
                              : T.Anchor->getBeginLoc();
      Out.push_back(std::string(ferry::runtimeCallName(T.Kind)) + "(" +
                    T.Buffer + (T.Count.empty() ? "" : ", " + T.Count) +
                    ") " + placementName(T.Where) + " line " +
                    std::to_string(S.line(At)));
    }
  }
  return Out;
}

const ferry::FunctionPlan &planOf(const ferry::ProgramPlan &Plan,
                                  const FunctionDecl *F) {
  for (const ferry::FunctionPlan &FP : Plan.Functions)
    if (FP.Function == F)
      return FP;
  FAIL("no plan for the function");
  return Plan.Functions.front();
}

const char *Prelude = R"(
#include <ferry/ferry.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
using ferry::Buffer;
using ferry::ComputeContext;
using ferry::KernelContext;
using ferry::Range;
FERRY_KERNEL void rw(KernelContext kc, int *v) { if (kc.x < kc.maxX) v[kc.x] += 1; }
FERRY_KERNEL void ro(KernelContext kc, const int *in, int *out) { out[kc.x] = in[kc.x]; }
FERRY_KERNEL void partial(KernelContext kc, int *out) { if (kc.x % 2 == 0) out[kc.x] = 1; }
)";

std::string program(const std::string &Body) { return Prelude + Body; }

} // namespace

TEST_CASE("a loop of dispatches that surely runs copies in before it and out after it", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  for (int r = 0; r < 4; ++r)                              // LOOP
    cc.dispatch(rw, Range(v.size()), v);
}                                                          // END
)"));
  CHECK(transfers(S, "run") ==
        std::vector<std::string>{
            "toDevice(v) before line " + std::to_string(S.lineOf("// LOOP")),
            // The data flow still joins the path that skips the loop, so
            // the copy back is guarded (the same bytes: the flag is set).
            "fromDeviceIfStale(v) end of block line " +
                std::to_string(S.lineOf("// END"))});
}

TEST_CASE("a loop that may run zero times gets no copy above it", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int rounds) {
  for (int r = 0; r < rounds; ++r)                         // FIRST
    cc.dispatch(rw, Range(v.size()), v);                   // DISPATCH
}                                                          // END
)"));
  // Hoisted, the copy would move v on a run with rounds == 0; at the
  // dispatch, guarded, it moves v on the first trip only. No code here
  // calls `run`, so code Ferry does not see may run it twice in a compute:
  // the guard must find the device copy stale, as the plan starts.
  CHECK(transfers(S, "run") ==
        std::vector<std::string>{
            "hostWrites(v) before line " + std::to_string(S.lineOf("// FIRST")),
            "toDeviceIfStale(v) before line " +
                std::to_string(S.lineOf("// DISPATCH")),
            "fromDeviceIfStale(v) end of block line " +
                std::to_string(S.lineOf("// END"))});
}

TEST_CASE("an entry that may run again in one compute tells the run-time "
          "state the device copy is stale where it starts",
          "[plan]") {
  const std::string Run = R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  v[0] += 1;                                               // FIRST
  cc.dispatch(rw, Range(v.size()), v);                     // DISPATCH
  cc.dispatch(rw, Range(v.size()), v);
}
)";
  SECTION("run once where a compute starts: nothing to tell") {
    Source S(program(Run + R"(
void once(ferry::Accelerator &acc, Buffer<int> &v) {
  acc.compute([&](ComputeContext &cc) { run(cc, v); });
}
)"));
    CHECK(transfers(S, "run") ==
          std::vector<std::string>{
              "toDevice(v) before line " + std::to_string(S.lineOf("// DISPATCH")),
              "fromDevice(v) end of block line " +
                  std::to_string(S.lineOf("// DISPATCH") + 2)});
  }
  SECTION("run through a function pointer: its own copy in is plain, and "
          "nothing trusts the run-time state") {
    Source S(program(Run + R"(
void twice(ferry::Accelerator &acc, Buffer<int> &v) {
  void (*f)(ComputeContext &, Buffer<int> &) = run;
  acc.compute([&](ComputeContext &cc) { f(cc, v); f(cc, v); });
}
)"));
    CHECK(transfers(S, "run").front() ==
          "toDevice(v) before line " + std::to_string(S.lineOf("// DISPATCH")));
  }
  SECTION("run through a function pointer, handing the buffer over") {
    Source S(program(R"(
FERRY_COMPUTE void inner(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
}
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  v[0] += 1;                                               // FIRST
  inner(cc, v);
}
void twice(ferry::Accelerator &acc, Buffer<int> &v) {
  void (*f)(ComputeContext &, Buffer<int> &) = run;
  acc.compute([&](ComputeContext &cc) { f(cc, v); f(cc, v); });
}
)"));
    CHECK(transfers(S, "run").front() ==
          "hostWrites(v) before line " + std::to_string(S.lineOf("// FIRST")));
  }
}

TEST_CASE("a copy leaves a loop only if every path into it uses the copy",
          "[plan]") {
  SECTION("a trip may break before its dispatch: the copy stays at it") {
    Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int stop) {
  for (int r = 0; r < 4; ++r) {                            // FIRST
    if (r == stop)
      break;
    cc.dispatch(rw, Range(v.size()), v);                   // DISPATCH
  }
}                                                          // END
)"));
    CHECK(transfers(S, "run") ==
          std::vector<std::string>{
              "hostWrites(v) before line " +
                  std::to_string(S.lineOf("// FIRST")),
              "toDeviceIfStale(v) before line " +
                  std::to_string(S.lineOf("// DISPATCH")),
              "fromDeviceIfStale(v) end of block line " +
                  std::to_string(S.lineOf("// END"))});
  }
  SECTION("a trip may return before its dispatch: the copy stays at it") {
    Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int stop) {
  int r = 0;                                               // FIRST
  do {
    if (r == stop)
      return;                                              // RETURN
    cc.dispatch(rw, Range(v.size()), v);                   // DISPATCH
  } while (++r < 4);
}                                                          // END
)"));
    CHECK(transfers(S, "run") ==
          std::vector<std::string>{
              "hostWrites(v) before line " +
                  std::to_string(S.lineOf("// FIRST")),
              "fromDeviceIfStale(v) before line " +
                  std::to_string(S.lineOf("// RETURN")),
              "toDeviceIfStale(v) before line " +
                  std::to_string(S.lineOf("// DISPATCH")),
              // Past the loop only after a dispatch: the device's is newer.
              "fromDevice(v) end of block line " +
                  std::to_string(S.lineOf("// END"))});
  }
  SECTION("a dispatch on one branch only: the copy stays at it") {
    Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int odd) {
  for (int r = 0; r < 4; ++r)
    if (r % 2 == odd)
      cc.dispatch(rw, Range(v.size()), v);                 // DISPATCH
}
)"));
    CHECK(transfers(S, "run").at(1) ==
          "toDeviceIfStale(v) before line " +
              std::to_string(S.lineOf("// DISPATCH")));
  }
  SECTION("branches that join before the dispatch: hoisted") {
    Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int odd) {
  int seen = 0;
  for (int r = 0; r < 4; ++r) {                            // LOOP
    if (r % 2 == odd)
      ++seen;
    else
      --seen;
    cc.dispatch(rw, Range(v.size()), v);
  }
}
)"));
    CHECK(transfers(S, "run").front() ==
          "toDevice(v) before line " + std::to_string(S.lineOf("// LOOP")));
  }
}

TEST_CASE("a loop that surely starts its trip at a dispatch copies above it",
          "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  for (;;) {                                               // LOOP
    cc.dispatch(rw, Range(v.size()), v);
    break;
  }
}                                                          // END
)"));
  CHECK(transfers(S, "run") ==
        std::vector<std::string>{
            "toDevice(v) before line " + std::to_string(S.lineOf("// LOOP")),
            "fromDevice(v) end of block line " +
                std::to_string(S.lineOf("// END"))});
}

TEST_CASE("a path that ends in exit() joins no path after it", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int n) {
  cc.dispatch(rw, Range(v.size()), v);
  if (n < 0) {
    std::printf("%d\n", v[0]);                             // SHOW
    std::exit(1);
  }
  std::printf("%d\n", v[1]);                               // READ
}                                                          // END
)"));
  // Only the path that goes on reaches the read: the device holds the
  // newer copy there for sure, whatever the other path copied back.
  CHECK(transfers(S, "run") ==
        std::vector<std::string>{
            "toDevice(v) before line " +
                std::to_string(S.lineOf("cc.dispatch")),
            "fromDevice(v) before line " + std::to_string(S.lineOf("// SHOW")),
            "fromDevice(v) before line " + std::to_string(S.lineOf("// READ"))});
}

TEST_CASE("a dispatch no path reaches becomes a launch with no lines",
          "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);                     // LIVE
  if (sizeof(int) > 0)
    return;                                                // RETURN
  cc.dispatch(rw, Range(v.size()), v);                     // DEAD
}
)"));
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  const ferry::FunctionPlan &FP = planOf(Plan, S.function("run"));
  // Both dispatches are launched, so the rewritten file runs no kernel on
  // the host; only the live one has copies around it.
  CHECK(FP.Dispatches.size() == 2);
  CHECK(transfers(S, "run") ==
        std::vector<std::string>{
            "toDevice(v) before line " + std::to_string(S.lineOf("// LIVE")),
            "fromDevice(v) before line " +
                std::to_string(S.lineOf("// RETURN"))});
}

TEST_CASE("a covering write-only kernel needs no copy in", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &in, Buffer<float> &f, Buffer<int> &out) {
  cc.dispatch(ro, Range(out.size()), in, out);
}                                                          // END
)"));
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  const ferry::FunctionPlan &FP = planOf(Plan, S.function("run"));
  REQUIRE(FP.Dispatches.size() == 1);
  REQUIRE(FP.Dispatches[0].Arguments.size() == 2);
  CHECK(FP.Dispatches[0].Arguments[0].Wrapper == "ro");
  CHECK(FP.Dispatches[0].Arguments[1].Wrapper == "wo");
  // `in` and `out` may be the same buffer (both Buffer<int>&), so their
  // copies are guarded; `out` is never copied in.
  std::vector<std::string> T = transfers(S, "run");
  CHECK(std::count_if(T.begin(), T.end(), [](const std::string &L) {
          return L.rfind("toDevice", 0) == 0 && L.find("(out)") != std::string::npos;
        }) == 0);
}

TEST_CASE("a kernel that writes part of a buffer needs the host data first", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &out) {
  cc.dispatch(partial, Range(out.size()), out);            // DISPATCH
}
)"));
  std::vector<std::string> T = transfers(S, "run");
  REQUIRE(!T.empty());
  CHECK(T.front() == "toDevice(out) before line " +
                         std::to_string(S.lineOf("// DISPATCH")));
}

TEST_CASE("a read inside an if copies only on that branch", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, int steps) {
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(rw, Range(v.size()), v);
    if (s % 3 == 0)
      std::printf("%d\n", v[0]);                           // READ
  }
}
)"));
  std::vector<std::string> T = transfers(S, "run");
  CHECK(std::find(T.begin(), T.end(),
                  "fromDevice(v) before line " +
                      std::to_string(S.lineOf("// READ"))) != T.end());
}

TEST_CASE("names that may denote several buffers get guarded copies at the use",
          "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &a, int steps) {
  Buffer<int> b(a.size());
  Buffer<int> *from = &a, *to = &b;
  for (int s = 0; s < steps; ++s) {
    cc.dispatch(ro, Range(a.size()), *from, *to);          // DISPATCH
    std::swap(from, to);
  }
}
)"));
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  const ferry::FunctionPlan &FP = planOf(Plan, S.function("run"));
  CHECK(FP.staticCopies() == 0);
  std::vector<std::string> T = transfers(S, "run");
  CHECK(std::find(T.begin(), T.end(),
                  "toDeviceIfStale(*from) before line " +
                      std::to_string(S.lineOf("// DISPATCH"))) != T.end());
  // The local `b` dies with the function: it is never copied back.
  for (const std::string &L : T)
    CHECK(L.find("(b)") == std::string::npos);
}

TEST_CASE("a whole-buffer host write needs no copy back first", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
  std::fill(v.begin(), v.end(), 7);                        // FILL
  cc.dispatch(rw, Range(v.size()), v);
}
)"));
  std::vector<std::string> T = transfers(S, "run");
  const std::string Fill = std::to_string(S.lineOf("// FILL"));
  CHECK(std::find(T.begin(), T.end(), "hostWrites(v) before line " + Fill) !=
        T.end());
  CHECK(std::find(T.begin(), T.end(), "fromDevice(v) before line " + Fill) ==
        T.end());
}

TEST_CASE("std::copy into a buffer leaves its coverage to the runtime", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, Buffer<float> &w) {
  Buffer<int> tmp(v.size());
  cc.dispatch(rw, Range(v.size()), v);
  std::copy(tmp.begin(), tmp.end(), v.begin());            // COPY
}
)"));
  std::vector<std::string> T = transfers(S, "run");
  CHECK(std::find(T.begin(), T.end(),
                  "hostWrites(v, tmp.size()) before line " +
                      std::to_string(S.lineOf("// COPY"))) != T.end());
}

TEST_CASE("an early return copies back what its own path left stale", "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, bool stop) {
  cc.dispatch(rw, Range(v.size()), v);
  if (stop)
    return;                                                // RETURN
  v[0] = 1;
}
)"));
  std::vector<std::string> T = transfers(S, "run");
  CHECK(std::find(T.begin(), T.end(),
                  "fromDevice(v) before line " +
                      std::to_string(S.lineOf("// RETURN"))) != T.end());
}

TEST_CASE("a compute function called only from another leaves its buffers "
          "where they are",
          "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void inner(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
}
FERRY_COMPUTE void outer(ComputeContext &cc, Buffer<int> &v) {
  v[0] = 5;
  inner(cc, v);                                            // CALL
  std::printf("%d\n", v[1]);                               // AFTER
}
)"));
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  CHECK(Plan.Entries.count(S.function("outer")) == 1);
  CHECK(Plan.Entries.count(S.function("inner")) == 0);
  CHECK(Plan.Internal.count(S.function("inner")) == 1);
  CHECK(Plan.Internal.count(S.function("outer")) == 0);
  // The callee guards its own copy in (the runtime knows of the caller's
  // host write) and syncs nothing on return; the caller copies nothing for
  // the call and brings `v` back where it reads it, guarded.
  std::vector<std::string> Inner = transfers(S, "inner");
  REQUIRE(Inner.size() == 1);
  CHECK(Inner[0].rfind("toDeviceIfStale(v) before", 0) == 0);
  std::vector<std::string> Outer = transfers(S, "outer");
  for (const std::string &L : Outer)
    CHECK(L.find("line " + std::to_string(S.lineOf("// CALL"))) ==
          std::string::npos);
  CHECK(std::find(Outer.begin(), Outer.end(),
                  "fromDeviceIfStale(v) before line " +
                      std::to_string(S.lineOf("// AFTER"))) != Outer.end());
  CHECK(std::none_of(Outer.begin(), Outer.end(), [](const std::string &L) {
    return L.find("end of block") != std::string::npos;
  }));
}

TEST_CASE("a dispatch's scalar arguments are host reads", "[plan]") {
  Source S(program(R"(
FERRY_KERNEL void fill(KernelContext kc, int *a, int v) { a[kc.x] = v + kc.x; }
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &a, Buffer<int> &b) {
  cc.dispatch(fill, Range(a.size()), a, 1);
  cc.dispatch(fill, Range(b.size()), b, a[3]);             // SCALAR
}
)"));
  std::vector<std::string> T = transfers(S, "run");
  const std::string Line = std::to_string(S.lineOf("// SCALAR"));
  // `a` may be `b` (both Buffer<int>&), so the copy is guarded.
  CHECK(std::count_if(T.begin(), T.end(), [&](const std::string &L) {
          return L.rfind("fromDevice", 0) == 0 &&
                 L.find("(a) before line " + Line) != std::string::npos;
        }) == 1);
}

TEST_CASE("an overwrite that ?: may skip copies back first, at the statement",
          "[plan]") {
  Source S(program(R"(
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &v, bool reset) {
  cc.dispatch(rw, Range(v.size()), v);
  reset ? (std::fill(v.begin(), v.end(), 0), 0) : 1;         // MAYBE
  for (int i = 0; i < 3; ++i)                              // LOOP
    std::fill(v.begin(), v.end(), i);                      // FILL
}
)"));
  std::vector<std::string> T = transfers(S, "run");
  // When `reset` is false the kernel's result must survive: the statement
  // copies it back before telling the runtime the host copy is newer.
  std::string Maybe = std::to_string(S.lineOf("// MAYBE"));
  CHECK(std::find(T.begin(), T.end(), "fromDevice(v) before line " + Maybe) !=
        T.end());
  // An overwrite in a loop is reported where it happens, never before the
  // loop (which may not run).
  for (const std::string &L : T)
    CHECK(L.find("hostWrites(v) before line " +
                 std::to_string(S.lineOf("// LOOP"))) == std::string::npos);
}

TEST_CASE("a declared write-only parameter is passed as the user's promise",
          "[plan]") {
  Source S(program(R"(
FERRY_KERNEL void column(KernelContext kc, FERRY_WO int *out, int rows) {
  for (int r = 0; r < rows; ++r)
    out[r * kc.maxX + kc.x] = r;
}
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &out, int rows) {
  cc.dispatch(column, Range(out.size() / rows), out, rows);
}
)"));
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  const ferry::FunctionPlan &FP = planOf(Plan, S.function("run"));
  REQUIRE(FP.Dispatches.size() == 1);
  // Each work-item writes a column: Ferry cannot prove coverage, FERRY_WO
  // promises it, and woDeclared tells the runtime not to second-guess it.
  CHECK(FP.Dispatches[0].Arguments[0].Wrapper == "woDeclared");
  CHECK(FP.Dispatches[0].Arguments[0].CoverageBound == nullptr);
  CHECK(transfers(S, "run") ==
        std::vector<std::string>{"fromDevice(out) end of block line " +
                                 std::to_string(S.lineOf("cc.dispatch") + 1)});
}

TEST_CASE("buffers nothing uses after the compute need no copy back", "[plan]") {
  Source S(program(R"(
static int *kept = nullptr;
static Buffer<int> *held = nullptr;
static void fillAll(Buffer<int> &b) { std::fill(b.begin(), b.end(), 3); }
static void keep(int *p) { kept = p; }
static void hold(Buffer<int> &b) { held = &b; }
FERRY_COMPUTE void run(ComputeContext &cc, Buffer<int> &plain, Buffer<int> *viaPointer,
                       Buffer<int> &filled, Buffer<int> &earlier, Buffer<int> &later,
                       Buffer<int> &pointed, Buffer<int> &element, Buffer<int> &captured,
                       Buffer<int> &stored, Buffer<int> &held2) {
  cc.dispatch(rw, Range(plain.size()), plain);
}
FERRY_COMPUTE void again(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
}
FERRY_COMPUTE void round(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
}
FERRY_COMPUTE void elsewhere(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
}
void other(ComputeContext &cc, Buffer<int> &v) { elsewhere(cc, v); }
int main() {
  Buffer<int> plain(4), viaPointer(4), filled(4), earlier(4), later(4), pointed(4),
      element(4), captured(4), stored(4), held2(4), looped(4), once(4), third(4);
  ferry::Accelerator acc;
  plain[0] = plain.size();
  fillAll(filled);
  acc.compute([&](ComputeContext &cc) { again(cc, earlier); });
  int *p = pointed.data();
  int &e = element[1];
  auto show = [&] { return captured[0]; };
  keep(stored.data());
  hold(held2);
  acc.compute([&](ComputeContext &cc) {
    run(cc, plain, &viaPointer, filled, earlier, later, pointed, element, captured,
        stored, held2);
  });
  for (int i = 0; i < 2; ++i)
    acc.compute([&](ComputeContext &cc) { again(cc, looped); });
  {
    Buffer<int> fresh(4);
    for (int i = 0; i < 2; ++i) {
      Buffer<int> inner(4);
      acc.compute([&](ComputeContext &cc) { round(cc, inner); });
    }
  }
  acc.compute([&](ComputeContext &cc) { elsewhere(cc, once); });
  std::printf("%d %d %d %d %d\n", later[0], *p, e, show(), *kept + (*held)[0]);
}
)"));
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  auto deadIn = [&](const std::string &Function) {
    std::set<std::string> Names;
    for (const ValueDecl *D : Plan.DeadAfterCompute[S.function(Function)])
      Names.insert(D->getNameAsString());
    return Names;
  };
  // `later` is named after the compute; `pointed`, `element`, `stored` and
  // `held2` handed out a pointer or reference that outlives its statement;
  // `captured` is read by a lambda that may run later.
  CHECK(deadIn("run") ==
        std::set<std::string>{"plain", "viaPointer", "filled", "earlier"});
  // `again` runs on `earlier`, which `run` uses next, and on `looped` in a
  // loop, whose next round reads it.
  CHECK(deadIn("again").empty());
  // The loop around `round` makes a new `inner` each time.
  CHECK(deadIn("round") == std::set<std::string>{"v"});
  // `elsewhere` is also called from a plain function: its callers there
  // cannot be followed.
  CHECK(deadIn("elsewhere").empty());
}
