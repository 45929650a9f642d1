// Which buffers a compute call keeps on the device (analyses/
// KeptBetweenComputes.h), as data: per compute statement, the buffers the
// host has provably not written since the previous compute returned, and
// per entry, the declarations its plan starts device-unknown. The
// scenarios (test/scenarios/per_frame*.cpp, keep_*.cpp) check the same
// decisions by the bytes they move.
#include "../analyses/TestSupport.h"

#include "analyses/paths/AccessPath.h"
#include "plan/ProgramPlan.h"

#include <catch2/catch.hpp>

#include <map>

using namespace clang;
using ferry::test::Source;

namespace {

const char *Prelude = R"(
#include <ferry/ferry.hpp>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>
using ferry::Buffer;
using ferry::ComputeContext;
using ferry::KernelContext;
using ferry::Range;
FERRY_KERNEL void rw(KernelContext kc, int *v) { v[kc.x] += 1; }
FERRY_KERNEL void ro(KernelContext kc, const int *in, int *out) { out[kc.x] = in[kc.x]; }
FERRY_COMPUTE void step(ComputeContext &cc, Buffer<int> &v, int n) {
  cc.dispatch(rw, Range(v.size()), v);
}
FERRY_COMPUTE void pair(ComputeContext &cc, Buffer<int> &a, Buffer<int> &b) {
  cc.dispatch(ro, Range(a.size()), a, b);
}
FERRY_COMPUTE void bump(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
}
)";

/// "C2" -> "b" for each compute statement marked `// C2` that keeps
/// something: the buffers it keeps, joined with spaces, a `*` after one
/// that may still be new there (in no compute yet on some path), then
/// `+name` for each buffer it carries through without using it.
std::map<std::string, std::string>
keptAt(Source &S, const ferry::ProgramPlan &Plan,
       const std::vector<std::string> &Marks) {
  std::map<std::string, std::string> Out;
  for (const ferry::KeptAtCompute &K : Plan.KeptAtComputes) {
    unsigned Line = S.line(K.Statement->getBeginLoc());
    std::string Mark = "?";
    for (const std::string &M : Marks)
      if (S.lineOf("// " + M + "\n") == Line)
        Mark = M;
    std::string Names;
    auto Spelled = [](const ValueDecl *V, const ferry::FieldPath &Path) {
      return ferry::keptSpelling(V, Path);
    };
    for (size_t I = 0; I < K.Buffers.size(); ++I)
      Names += (Names.empty() ? "" : " ") + Spelled(K.Buffers[I], K.Paths[I]) +
               (K.New[I] ? "*" : "");
    for (size_t I = 0; I < K.Carried.size(); ++I)
      Names += (Names.empty() ? "+" : " +") +
               Spelled(K.Carried[I], K.CarriedPaths[I]);
    Out[Mark] = Names;
  }
  return Out;
}

std::set<std::string> startUnknown(Source &S, const ferry::ProgramPlan &Plan,
                                   const FunctionDecl *F) {
  std::set<std::string> Names;
  auto It = Plan.MayStayOnDevice.find(F);
  if (It != Plan.MayStayOnDevice.end())
    for (const ValueDecl *D : It->second)
      Names.insert(D->getNameAsString());
  return Names;
}

} // namespace

TEST_CASE(
    "a compute keeps what the host has not written since the previous one",
    "[plan][keep]") {
  Source S(std::string(Prelude) + R"(
void show(const Buffer<int> &b) { std::printf("%d\n", b[0]); }
void poke(Buffer<int> &b) { b[1] = 2; }
void opaque();

void frames() {
  Buffer<int> state(8, 1);
  ferry::Accelerator acc;
  for (int f = 0; f < 3; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, state, f); }); // F1
    std::printf("%d\n", state[0]);
    show(state);
  }
}

void written() {
  Buffer<int> a(8), b(8);
  ferry::Accelerator acc;
  acc.compute([&](ComputeContext &cc) { pair(cc, a, b); }); // W1
  a[0] = 7;
  acc.compute([&](ComputeContext &cc) { pair(cc, a, b); }); // W2
  poke(b);
  acc.compute([&](ComputeContext &cc) { pair(cc, a, b); }); // W3
  opaque();
  acc.compute([&](ComputeContext &cc) { pair(cc, a, b); }); // W4
  std::fill(a.begin(), a.end(), 0);
  acc.compute([&](ComputeContext &cc) { pair(cc, a, b); }); // W5
  for (int &x : b)
    x = 1;
  acc.compute([&](ComputeContext &cc) { pair(cc, a, b); }); // W6
  for (int x : a)
    std::printf("%d\n", x);
  acc.compute([&](ComputeContext &cc) { pair(cc, a, b); }); // W7
}

void pointers() {
  Buffer<int> raw(8), other(8), ref(8);
  ferry::Accelerator acc;
  acc.compute([&](ComputeContext &cc) { pair(cc, raw, other); }); // P1
  int *p = raw.data();
  int &e = ref[0];
  acc.compute([&](ComputeContext &cc) { pair(cc, raw, other); }); // P2
  acc.compute([&](ComputeContext &cc) { pair(cc, ref, other); }); // P3
  p[0] = 1;
  e = 2;
  const int *q = other.data();
  std::printf("%d\n", q[1]);
  auto viaRef = std::ref(ref);
  (void)viaRef;
  acc.compute([&](ComputeContext &cc) { pair(cc, raw, other); }); // P4
  acc.compute([&](ComputeContext &cc) { pair(cc, ref, other); }); // P5
}

void initialised() {
  Buffer<int> v(8);
  for (int i = 0; i < 8; ++i)
    v[i] = i;
  ferry::Accelerator acc;
  for (int f = 0; f < 3; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, v, f); }); // I1
    std::printf("%d\n", v[f]);
  }
}

void loopWrite() {
  Buffer<int> s(8);
  ferry::Accelerator acc;
  for (int f = 0; f < 3; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, s, f); }); // L1
    s[f] = f;
  }
  acc.compute([&](ComputeContext &cc) { step(cc, s, 0); }); // L2
}

void params(Buffer<int> &in, Buffer<int> &out) {
  ferry::Accelerator acc;
  acc.compute([&](ComputeContext &cc) { pair(cc, in, out); }); // A1
  acc.compute([&](ComputeContext &cc) { pair(cc, in, out); }); // A2
  out[0] = 1;
  acc.compute([&](ComputeContext &cc) { pair(cc, in, out); }); // A3
}

void planned() {
  Buffer<int> u(8), w(8);
  ferry::Accelerator acc;
  acc.compute([&](ComputeContext &cc) { bump(cc, u); bump(cc, w); }); // Q1
  w[0] = 1;
  acc.compute([&](ComputeContext &cc) { bump(cc, u); bump(cc, w); }); // Q2
}

void moved() {
  Buffer<int> m(8), n(8);
  ferry::Accelerator acc;
  acc.compute([&](ComputeContext &cc) { pair(cc, m, n); }); // M1
  std::swap(m, n);
  acc.compute([&](ComputeContext &cc) { pair(cc, m, n); }); // M2
  Buffer<int> t = std::move(m);
  acc.compute([&](ComputeContext &cc) { pair(cc, t, n); }); // M3
}

void views() {
  Buffer<int> v(8), x(8);
  ferry::Accelerator acc;
  acc.compute([&](ComputeContext &cc) { pair(cc, v, x); }); // V1
  auto r = std::ref(v[0]);
  std::vector<int> copy(x.begin(), x.end());
  std::printf("%d %d\n", r.get(), copy[1]);
  acc.compute([&](ComputeContext &cc) { pair(cc, v, x); }); // V2
}

void untouched() {
  Buffer<int> x(8), y(8), z(8);
  ferry::Accelerator acc;
  acc.compute([&](ComputeContext &cc) { step(cc, x, 0); }); // U1
  acc.compute([&](ComputeContext &cc) { step(cc, y, 0); }); // U2
  x[0] = 1;
  acc.compute([&](ComputeContext &cc) { pair(cc, x, y); }); // U3
  std::swap(y, z);
  z[1] = 2;
  acc.compute([&](ComputeContext &cc) { pair(cc, x, z); }); // U4
}
)");
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  REQUIRE(S.errors().empty());
  std::map<std::string, std::string> Kept = keptAt(
      S, Plan, {"F1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "P1", "P2",
                "P3", "P4", "P5", "I1", "L1", "L2", "A1", "A2", "A3", "Q1",
                "Q2", "M1", "M2", "M3", "U1", "U2", "U3", "U4", "V1", "V2"});
  // Reads between frames (an element, a const reference to a helper that
  // only reads) keep `state`; in the first frame it is still new.
  CHECK(Kept["F1"] == "state*");
  // W1: both new, nothing to keep. A write, a helper that writes, a call
  // Ferry cannot see, an overwrite, a range-for by reference: not kept
  // there. A range-for by value reads.
  CHECK(Kept.count("W1") == 0);
  CHECK(Kept["W2"] == "b");
  CHECK(Kept["W3"] == "a");
  CHECK(Kept.count("W4") == 0);
  CHECK(Kept["W5"] == "b");
  CHECK(Kept["W6"] == "a");
  CHECK(Kept["W7"] == "a b");
  // A mutable pointer or reference kept in a variable: never again, even
  // before it writes. A pointer to const reads.
  CHECK(Kept["P2"] == "other");
  CHECK(Kept["P3"] == "other");
  CHECK(Kept["P4"] == "other");
  CHECK(Kept["P5"] == "other");
  // Host initialisation, then reads only: kept in every frame.
  CHECK(Kept["I1"] == "v*");
  // A write later in the loop reaches the compute by the back edge.
  CHECK(Kept.count("L1") == 0);
  CHECK(Kept.count("L2") == 0);
  // A parameter starts written (its caller may have); after a compute it
  // is followed like a local. `out` may be `in` (`params(b, b)`): a write
  // to one writes both.
  CHECK(Kept.count("A1") == 0);
  CHECK(Kept["A2"] == "in out");
  CHECK(Kept.count("A3") == 0);
  // A planned lambda keeps what it captures.
  CHECK(Kept["Q2"] == "u");
  // A swap, and a buffer moved from or made from another's contents.
  CHECK(Kept.count("M2") == 0);
  CHECK(Kept["M3"] == "n");
  // U2 does not name `x`: the runtime leaves it in U1's epoch, which U3
  // resets (no keep at U2), so writing it keeps nothing stale and keeping
  // it would keep nothing: not kept. `y` is. A swap hands `z` the device
  // copy `y` had: the write after it counts.
  CHECK(Kept.count("U2") == 0);
  CHECK(Kept["U3"] == "y");
  CHECK(Kept["U4"] == "x");
  // std::ref of an element refers to it as a pointer would: `v` escapes.
  // Copying the elements out into a vector keeps no pointer to them.
  CHECK(Kept["V2"] == "x");
  CHECK(Kept.count("?") == 0);

  // The plans that start those computes start the kept buffers unknown.
  CHECK(startUnknown(S, Plan, S.function("step")) ==
        std::set<std::string>{"v"});
  CHECK(startUnknown(S, Plan, S.function("pair")) ==
        std::set<std::string>{"a", "b"});
  size_t PlannedLambdas = 0;
  for (const auto &[F, Decls] : Plan.MayStayOnDevice)
    if (const auto *M = dyn_cast<CXXMethodDecl>(F);
        M && M->getParent()->isLambda()) {
      ++PlannedLambdas;
      CHECK(Decls.size() == 1);
      CHECK((*Decls.begin())->getNameAsString() == "u");
    }
  CHECK(PlannedLambdas == 1);
}

TEST_CASE(
    "a place that can hold a pointer to the elements keeps none of that type",
    "[plan][keep]") {
  Source S(std::string(Prelude) + R"(
FERRY_KERNEL void scale(KernelContext kc, float *v) { v[kc.x] *= 2.0f; }
FERRY_COMPUTE void twice(ComputeContext &cc, Buffer<float> &v) {
  cc.dispatch(scale, Range(v.size()), v);
}
struct Stash { float *where = nullptr; };
Stash stash;

void frames() {
  Buffer<float> f(8);
  Buffer<int> i(8);
  ferry::Accelerator acc;
  for (int k = 0; k < 3; ++k) {
    acc.compute([&](ComputeContext &cc) { twice(cc, f); step(cc, i, k); }); // K1
    std::printf("%f %d\n", f[0], i[0]);
  }
}

void captured() {
  Buffer<int> c(8);
  int *slot = nullptr;
  ferry::Accelerator acc;
  for (int k = 0; k < 3; ++k)
    acc.compute([&](ComputeContext &cc) { step(cc, c, k); slot = &c[0]; }); // K2
  std::printf("%d\n", *slot);
}

void hidden() {
  Buffer<int> h(8);
  ferry::Accelerator acc;
  void (*callback)() = nullptr;
  for (int k = 0; k < 3; ++k) {
    acc.compute([&](ComputeContext &cc) { step(cc, h, k); }); // K3
    if (callback)
      callback();
  }
}

void inMacro() {
  Buffer<int> m(8);
  ferry::Accelerator acc;
#define RUN acc.compute([&](ComputeContext &cc) { step(cc, m, 0); })
  RUN;
  RUN;
}
)");
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  REQUIRE(S.errors().empty());
  std::map<std::string, std::string> Kept = keptAt(S, Plan, {"K1", "K2", "K3"});
  // The global `stash` can hold a `float *`: `f` may be written through
  // it; `i` is kept.
  CHECK(Kept["K1"] == "i*");
  // A compute lambda that can store a pointer into a variable of main.
  CHECK(Kept.count("K2") == 0);
  // A call through a pointer may run anything.
  CHECK(Kept.count("K3") == 0);
  // A compute written in a macro gets no line of its own.
  CHECK(Kept.count("?") == 0);
  CHECK(Plan.KeptAtComputes.size() == 1);
}

TEST_CASE("a compute carries what a later compute keeps through it",
          "[plan][keep]") {
  Source S(std::string(Prelude) + R"(
void alternating() {
  Buffer<int> a(8), b(8), c(8);
  ferry::Accelerator acc;
  for (int f = 0; f < 3; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, a, f); }); // T1
    acc.compute([&](ComputeContext &cc) { step(cc, b, f); }); // T2
    c[0] = f;
    acc.compute([&](ComputeContext &cc) { step(cc, c, f); }); // T3
  }
  acc.compute([&](ComputeContext &cc) { step(cc, b, 0); }); // T4
}

void scoped() {
  Buffer<int> a(8);
  ferry::Accelerator acc;
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, a, f); }); // S1
    Buffer<int> t(8);
    acc.compute([&](ComputeContext &cc) { step(cc, t, f); }); // S2
    acc.compute([&](ComputeContext &cc) { step(cc, t, f); }); // S3
  }
}

struct Two {
  Buffer<int> a;
  Buffer<int> b;
};

void members() {
  Two two{Buffer<int>(8), Buffer<int>(8)};
  ferry::Accelerator acc;
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, two.a, f); }); // N1
    acc.compute([&](ComputeContext &cc) { step(cc, two.b, f); }); // N2
    acc.compute([&](ComputeContext &cc) { bump(cc, two.a); }); // N3
  }
  two.b[0] = 1;
  acc.compute([&](ComputeContext &cc) { bump(cc, two.a); }); // N4
  acc.compute([&](ComputeContext &cc) { bump(cc, two.b); }); // N5
}

struct Nest {
  Two g;
};

void nested() {
  Nest n{Two{Buffer<int>(8), Buffer<int>(8)}};
  ferry::Accelerator acc;
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, n.g.a, f); }); // D1
    acc.compute([&](ComputeContext &cc) { bump(cc, n.g.b); }); // D2
  }
}

void touch(Two &t) { t.a[1] = 7; }

void objectParameter(ferry::Accelerator &acc, Two &t) {
  acc.compute([&](ComputeContext &cc) { step(cc, t.a, 0); }); // O1
  for (int f = 0; f < 2; ++f)
    acc.compute([&](ComputeContext &cc) { step(cc, t.a, f); }); // O2
  touch(t);
  acc.compute([&](ComputeContext &cc) { step(cc, t.a, 0); }); // O3
  acc.compute([&](ComputeContext &cc) { bump(cc, t.a); }); // O4
}

void alternatingParameter(ferry::Accelerator &acc, Two &t, Buffer<int> &other) {
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, t.a, f); }); // E1
    acc.compute([&](ComputeContext &cc) { step(cc, t.b, f); }); // E2
  }
  other[0] = 1;
}

void boundParameter(ferry::Accelerator &acc, Two &t, Buffer<int> &other) {
  acc.compute([&](ComputeContext &cc) { step(cc, t.a, 0); }); // B1
  other[0] = 1;
  acc.compute([&](ComputeContext &cc) { step(cc, t.a, 0); }); // B2
}

void sharedParameter(ferry::Accelerator &acc, Two &t, Buffer<int> &other) {
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { pair(cc, t.a, other); }); // H1
    acc.compute([&](ComputeContext &cc) { step(cc, t.b, f); }); // H2
  }
}

struct Solver {
  Buffer<int> u = Buffer<int>(8), w = Buffer<int>(8);
  void poke() { u[1] = 2; }
  void run(ferry::Accelerator &acc) {
    for (int f = 0; f < 2; ++f) {
      acc.compute([&](ComputeContext &cc) { step(cc, u, f); }); // Y1
      acc.compute([&](ComputeContext &cc) { bump(cc, w); }); // Y2
    }
    poke();
    acc.compute([&](ComputeContext &cc) { step(cc, u, 0); }); // Y3
    acc.compute([&](ComputeContext &cc) { bump(cc, w); }); // Y4
  }
};

FERRY_COMPUTE void read(ComputeContext &cc, const Buffer<int> &in,
                        Buffer<int> &out) {
  cc.dispatch(ro, Range(in.size()), in, out);
}

struct Viewer {
  Buffer<int> u = Buffer<int>(8), w = Buffer<int>(8);
  mutable Buffer<int> m = Buffer<int>(8);
  void show(ferry::Accelerator &acc, Buffer<int> &out) const {
    for (int f = 0; f < 2; ++f) {
      acc.compute([&](ComputeContext &cc) { read(cc, u, out); }); // C1
      acc.compute([&](ComputeContext &cc) { read(cc, w, out); }); // C2
    }
    const_cast<Viewer *>(this)->u[1] = 2;
    m[0] = 1;
    acc.compute([&](ComputeContext &cc) { read(cc, u, out); }); // C3
    acc.compute([&](ComputeContext &cc) { read(cc, m, out); }); // C4
    acc.compute([&](ComputeContext &cc) { read(cc, w, out); }); // C5
  }
};

void touchThrough(Two *t) { t->a[1] = 7; }

void pointerParameter(ferry::Accelerator &acc, Two *t) {
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, t->a, f); }); // P1
    acc.compute([&](ComputeContext &cc) { step(cc, (*t).b, f); }); // P2
  }
  touchThrough(t);
  acc.compute([&](ComputeContext &cc) { step(cc, t->a, 0); }); // P3
  Two *alias = t;
  alias->b[0] = 1;
  acc.compute([&](ComputeContext &cc) { step(cc, t->b, 0); }); // P4
}

void steppedPointer(ferry::Accelerator &acc, Two *t) {
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, t->a, f); }); // M1
    ++t;
  }
}

void parameter(ferry::Accelerator &acc, Buffer<int> &p, Buffer<int> &q) {
  for (int f = 0; f < 2; ++f) {
    acc.compute([&](ComputeContext &cc) { step(cc, p, f); }); // R1
    acc.compute([&](ComputeContext &cc) { step(cc, q, f); }); // R2
  }
}
)");
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  REQUIRE(S.errors().empty());
  std::map<std::string, std::string> Kept =
      keptAt(S, Plan, {"T1", "T2", "T3", "T4", "S1", "S2", "S3", "R1", "R2",
                       "N1", "N2", "N3", "N4", "N5", "D1", "D2", "O1", "O2",
                       "O3", "O4", "E1", "E2", "H1", "H2", "B1", "B2", "Y1",
                       "Y2", "Y3", "Y4", "P1", "P2", "P3", "P4", "M1", "C1", "C2",
                       "C3", "C4", "C5"});
  // Each compute of the loop carries the others' buffers; `c`, written
  // before its compute on every trip, is kept and carried nowhere.
  CHECK(Kept["T1"] == "a* +b");
  CHECK(Kept["T2"] == "b* +a");
  CHECK(Kept["T3"] == "+a +b");
  // After the loop nothing keeps `a` again: nothing carries it.
  CHECK(Kept["T4"] == "b*");
  // `t` is declared after S1: no line before S1 may name it. Each trip's
  // `t` is new at S2.
  CHECK(Kept["S1"] == "a*");
  CHECK(Kept["S2"] == "+a");
  CHECK(Kept["S3"] == "t +a");
  // Members of a local object passed one by one are handed by their paths,
  // and a compute naming one leaves the other untouched, to carry. `two.b`
  // is written after the loop: N4 does not carry it, and N5 does not keep
  // it (N4's `two.a` may be new: the loop may not run).
  CHECK(Kept["N1"] == "two.a* +two.b");
  CHECK(Kept["N2"] == "two.b* +two.a");
  CHECK(Kept["N3"] == "two.a +two.b");
  CHECK(Kept["N4"] == "two.a*");
  CHECK(Kept.count("N5") == 0);
  // Two levels down, in an aggregate whose inner object is spelled as a
  // cast (`Two{…}`): made fresh all the same, and followed by its path.
  CHECK(Kept["D1"] == "n.g.a* +n.g.b");
  CHECK(Kept["D2"] == "n.g.b* +n.g.a");
  // A parameter object's buffers are followed by their paths, as a buffer
  // parameter is. The caller may have written them: the function's first
  // line forgets their device copies, and from there they are as new
  // buffers are (O1 keeps nothing: it would carry nothing). G names `t.a`
  // only inside lambdas, so its table has no object for it: the helper's
  // write through the whole object is a guess of its type, and reaches it
  // all the same (O3).
  CHECK(Kept.count("O1") == 0);
  CHECK(Kept["O2"] == "t.a");
  CHECK(Kept.count("O3") == 0);
  CHECK(Kept["O4"] == "t.a");
  // A compute whose lambda can reach nothing that may be a parameter's
  // buffer carries it: E1 captures `t` alone and names `t.a`, so `t.b`
  // (which `other` may be, but E1 does not capture `other`) is out of its
  // reach. In the loop's first trip they are the forgotten copies.
  CHECK(Kept["E1"] == "t.a* +t.b");
  CHECK(Kept["E2"] == "t.b* +t.a");
  // H1 captures `other`, which may be `t.b`: it carries nothing, and `t.b`
  // is Clean after it (H2 keeps it, which pays where `other` is `t.b`).
  // H2 captures `t`, which may hold `other`: it carries `t.a` alone.
  CHECK(Kept["H1"] == "t.a* other*");
  CHECK(Kept["H2"] == "t.b +t.a");
  // The caller may have bound `other` to `t.a`: writing it writes `t.a`,
  // though the table has no object for `t.a` to alias.
  CHECK(Kept.count("B1") == 0);
  CHECK(Kept.count("B2") == 0);
  // A member function's object is its caller's, followed from `this` like
  // an object parameter: forgotten at the start, kept and carried. The
  // host member `poke()` writes `u`.
  CHECK(Kept["Y1"] == "this->u* +this->w");
  CHECK(Kept["Y2"] == "this->w* +this->u");
  CHECK(Kept["Y3"] == "+this->w");
  // (The loop may not run: on that path `w` is the forgotten copy.)
  CHECK(Kept["Y4"] == "this->w*");
  // R1 captures `p` alone, which `q` may be: it carries nothing. From the
  // forgotten start and R2's epoch (which keeps `p` where `q` is `p`), R1
  // keeps `p`; R2 keeps `q`, clean since R1 returned.
  CHECK(Kept["R1"] == "p*");
  CHECK(Kept["R2"] == "q");
  // A pointer parameter G never moves is followed as an object reference
  // parameter is, `(*t).b` and `t->b` alike. A helper handed the pointer
  // writes through it (P3 keeps nothing, nor carries `t->b`), and a copy
  // of it makes both buffers escape (P4).
  CHECK(Kept["P1"] == "t->a* +t->b");
  CHECK(Kept["P2"] == "t->b* +t->a");
  CHECK(Kept.count("P3") == 0);
  CHECK(Kept.count("P4") == 0);
  // One G steps names another object each trip: it is not followed.
  CHECK(Kept.count("M1") == 0);
  // A const member function's object is followed too: its computes only
  // read the members. Each lambda captures `out`, which the caller may
  // have bound to a member: none carries anything, and a write to an
  // `int` buffer dirties `out`. What writes the members all the same is a
  // host write: a cast of `this` (`u` is not kept at C3), a `mutable`
  // member (`m`, clean again after C3, which may have used it as `out`).
  CHECK(Kept["C1"] == "this->u* out*");
  CHECK(Kept["C2"] == "this->w out");
  CHECK(Kept.count("C3") == 0);
  CHECK(Kept["C4"] == "this->m out");
  CHECK(Kept["C5"] == "this->w out");
  // The functions that keep what their callers own forget those device
  // copies first.
  std::map<std::string, std::string> Forgotten;
  for (const ferry::ForgottenAtEntry &F :
       ferry::forgottenAtEntry(Plan.KeptAtComputes)) {
    std::string &Names = Forgotten[F.Function->getNameAsString()];
    for (size_t I = 0; I < F.Buffers.size(); ++I)
      Names += (I ? " " : "") + ferry::keptSpelling(F.Buffers[I], F.Paths[I]);
  }
  CHECK(Forgotten == std::map<std::string, std::string>{
                         {"objectParameter", "t.a"},
                         {"alternatingParameter", "t.a t.b"},
                         {"sharedParameter", "t.a other t.b"},
                         {"parameter", "p q"},
                         {"pointerParameter", "t->a t->b"},
                         {"show", "this->u out this->w this->m"},
                         {"run", "this->u this->w"}});
}
