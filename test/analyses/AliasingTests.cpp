// Buffers as objects, and what names may point to: references, pointers
// (swapped with std::swap, chosen by a conditional each iteration), buffers
// created inside a compute function, parameters that may be one buffer.

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {
const char *Prelude = R"cpp(
#include <ferry/ferry.hpp>
#include <utility>
#include <vector>
using FB = ferry::Buffer<float>;
using IB = ferry::Buffer<int>;
FERRY_KERNEL void step(ferry::KernelContext kc, const float *from, float *to) {
  to[kc.x] = from[kc.x];
}
FERRY_KERNEL void steps(ferry::KernelContext kc, const int *from, int *to, int *flag) {
  to[kc.x] = from[kc.x];
  if (to[kc.x] != 0) flag[0] = 1;
}
static float display(const FB &grid) { return grid[0]; }
)cpp";

std::string withPrelude(const char *Body) { return std::string(Prelude) + Body; }

/// What `Var` (a local of `Function`) may point to after its body, as
/// spellings joined with `|`.
std::string pointsTo(Source &S, const std::string &Function,
                     const std::string &Var) {
  S.events(Function);
  for (const auto &[D, Ids] : S.factsAfter())
    if (D->getName() == Var) {
      HostEvent E;
      E.Targets.Ids = Ids;
      return S.targets(E);
    }
  return "<none>";
}

/// The targets of the events on the line holding `Marker`.
std::vector<std::string> targetsAt(Source &S, const std::string &Function,
                                   const std::string &Marker) {
  std::vector<std::string> Out;
  unsigned Line = S.lineOf(Marker);
  for (const HostEvent &E : S.events(Function))
    if (E.Site && S.line(E.Site->getBeginLoc()) == Line)
      Out.push_back(hostEventName(E) + std::string(" ") + S.targets(E));
  return Out;
}
} // namespace

TEST_CASE("aliasing: objects of a compute function", "[aliasing]") {
  Source S(withPrelude(R"cpp(
struct Grids { FB cur; FB next; IB mask; };
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, const FB &b, FB *p,
                     IB &ints, Grids &g, Grids &h, int n) {
  FB local(n);
  cc.dispatch(step, ferry::Range(n), g.cur, g.next);
  cc.dispatch(step, ferry::Range(n), h.cur, local);
  {
    FB inner(n);
    cc.dispatch(step, ferry::Range(n), a, inner);
  }
}
)cpp"));
  ObjectTable T(S.function("f"));
  std::map<std::string, const BufferObject *> O;
  for (const BufferObject &B : T.objects())
    O[B.Spelling] = &B;
  REQUIRE(O.size() == 9);
  CHECK(O.at("a")->Kind == ObjectKind::Parameter);
  CHECK(O.at("*p")->Kind == ObjectKind::Parameter);
  CHECK(O.at("g.cur")->Kind == ObjectKind::ParameterMember);
  CHECK(O.at("local")->Kind == ObjectKind::Local);
  CHECK(O.at("inner")->Kind == ObjectKind::Local);
  CHECK_FALSE(O.at("local")->callerVisible());

  auto aliases = [&](const std::string &X, const std::string &Y) {
    return O.at(X)->MayAlias.count(O.at(Y)->Id) != 0;
  };
  // run(cc, a, a): parameters of one element type may be one buffer, const
  // or not, through a pointer or a member of a parameter.
  CHECK(aliases("a", "b"));
  CHECK(aliases("b", "a"));
  CHECK(aliases("a", "*p"));
  CHECK(aliases("a", "g.cur"));
  // Two members of one object are two buffers; of two parameters, maybe one.
  CHECK_FALSE(aliases("g.cur", "g.next"));
  CHECK(aliases("g.cur", "h.cur"));
  CHECK(aliases("g.next", "h.cur"));
  // Another element type is another buffer.
  CHECK_FALSE(aliases("a", "ints"));
  // What the function creates is its own.
  CHECK_FALSE(aliases("local", "a"));
  CHECK_FALSE(aliases("a", "local"));
  CHECK_FALSE(aliases("local", "inner"));
  CHECK(O.at("local")->MayAlias.empty());

  CHECK(T.withAliases({O.at("b")->Id}).count(O.at("a")->Id));
  REQUIRE(T.localFor(llvm::cast<clang::VarDecl>(O.at("local")->Decl)));
}

TEST_CASE("aliasing: life's pointers swapped every generation", "[aliasing]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void life(ferry::ComputeContext &cc, FB &a, FB &b, int gens, int every) {
  FB *from = &a;
  FB *to = &b;
  display(*from); // @first
  for (int gen = 0; gen < gens; ++gen) {
    cc.dispatch(step, ferry::Range(a.size()), *from, *to);
    std::swap(from, to);
    if ((gen + 1) % every == 0)
      display(*from); // @display
  }
  display(*to); // @after
}
FERRY_COMPUTE void straight(ferry::ComputeContext &cc, FB &a, FB &b) {
  FB *from = &a, *to = &b;
  std::swap(from, to);
  display(*from); // @swapped
  FB *tmp = from; from = to; to = tmp;
  display(*from); // @back
}
)cpp"));
  CHECK(targetsAt(S, "life", "// @first") == std::vector<std::string>{"read a"});
  CHECK(targetsAt(S, "life", "// @display") ==
        std::vector<std::string>{"read a|b"});
  CHECK(targetsAt(S, "life", "// @after") == std::vector<std::string>{"read a|b"});
  CHECK(pointsTo(S, "life", "from") == "a|b");
  CHECK(pointsTo(S, "life", "to") == "a|b");
  // Without a loop the swap is exact.
  CHECK(targetsAt(S, "straight", "// @swapped") ==
        std::vector<std::string>{"read b"});
  CHECK(targetsAt(S, "straight", "// @back") == std::vector<std::string>{"read a"});
  CHECK(pointsTo(S, "straight", "to") == "b");
}

TEST_CASE("aliasing: ping-pong references chosen each iteration", "[aliasing]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void smooth(ferry::ComputeContext &cc, FB &data, int steps) {
  FB scratch(data.size());
  for (int s = 0; s < steps; ++s) {
    auto &from = (s % 2 == 0) ? data : scratch;
    auto &to = (s % 2 == 0) ? scratch : data;
    cc.dispatch(step, ferry::Range(data.size()), from, to);
    float peek = to[0]; // @peek
  }
  FB &last = steps % 2 ? scratch : data;
  last[0] = 1.0f; // @last
  FB &fixed = data;
  fixed[1] = 2.0f; // @fixed
}
)cpp"));
  CHECK(targetsAt(S, "smooth", "// @peek") ==
        std::vector<std::string>{"read data|scratch"});
  CHECK(targetsAt(S, "smooth", "// @last") ==
        std::vector<std::string>{"write data|scratch"});
  CHECK(targetsAt(S, "smooth", "// @fixed") ==
        std::vector<std::string>{"write data"});
}

TEST_CASE("aliasing: branches join, assignments replace", "[aliasing]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &c, bool up, int n) {
  FB *p = &a;
  if (up)
    p = &b;
  else
    p = &c;
  (*p)[0] = 1.0f; // @join
  p = &a;
  (*p)[0] = 2.0f; // @replaced
  FB *q = up ? &b : nullptr;
  (*q)[0] = 3.0f; // @maybe
  FB *r = &a;
  while (n-- > 0) {
    if (n == 3) { r = &c; break; }
    r = &b;
  }
  (*r)[0] = 4.0f; // @loop
  r = &c;
  switch (n) {
  case 0: r = &a; break;
  case 1: r = &b; break;
  default: break;
  }
  (*r)[1] = 5.0f; // @switch
  float *e = a.data();
  if (up) e = b.data();
  e[0] = 6.0f; // @elements
  float *e2 = e + 1;
  e2[0] = 7.0f; // @arith
}
)cpp"));
  CHECK(targetsAt(S, "f", "// @join") == std::vector<std::string>{"write b|c"});
  CHECK(targetsAt(S, "f", "// @replaced") == std::vector<std::string>{"write a"});
  CHECK(targetsAt(S, "f", "// @maybe") == std::vector<std::string>{"write b"});
  CHECK(targetsAt(S, "f", "// @loop") == std::vector<std::string>{"write a|b|c"});
  CHECK(targetsAt(S, "f", "// @switch") == std::vector<std::string>{"write a|b|c"});
  CHECK(targetsAt(S, "f", "// @elements") == std::vector<std::string>{"write a|b"});
  CHECK(targetsAt(S, "f", "// @arith") == std::vector<std::string>{"write a|b"});
}

TEST_CASE("aliasing: a flag buffer read each iteration", "[aliasing]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void converge(ferry::ComputeContext &cc, IB &a, IB &b, IB &flag) {
  IB *from = &a, *to = &b;
  do {
    flag[0] = 0; // @reset
    cc.dispatch(steps, ferry::Range(a.size()), *from, *to, flag);
    std::swap(from, to);
  } while (flag[0] != 0); // @test
}
)cpp"));
  CHECK(targetsAt(S, "converge", "// @reset") ==
        std::vector<std::string>{"write flag"});
  CHECK(targetsAt(S, "converge", "// @test") ==
        std::vector<std::string>{"read flag"});
  CHECK(pointsTo(S, "converge", "from") == "a|b");
}

TEST_CASE("aliasing: a container's buffers are one inexact object",
          "[aliasing]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, IB &i,
                     std::vector<FB> &many) {
  many[0][0] = 1.0f; // @vector
  FB &first = many[1];
  first[0] = 2.0f; // @first
}
)cpp"));
  std::vector<HostEvent> E = S.events("f");
  bool Saw = false;
  for (const HostEvent &Ev : E)
    if (S.line(Ev.Site->getBeginLoc()) == S.lineOf("// @vector")) {
      Saw = true;
      // Which element only the run knows: the container's object, weakly
      // (issue 23; not any float buffer, which would be a guess).
      CHECK_FALSE(Ev.Targets.Exact);
      CHECK_FALSE(Ev.Targets.Guessed);
      CHECK(S.targets(Ev) == "many");
    }
  CHECK(Saw);
  // A reference bound to an element is as inexact as the element.
  CHECK(targetsAt(S, "f", "// @first") == std::vector<std::string>{"write many"});
}
