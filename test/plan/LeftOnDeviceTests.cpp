// Which loops leave buffers on the device until they end
// (analyses/lifetime/LeftOnDeviceInLoops.h), as data: per loop, the
// buffers whose copies home wait for the block the rewriter puts around
// it. The scenario test/scenarios/loops_left_on_device.cpp checks the same
// decisions by the bytes they move and the results they print.
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
#include <cstdio>
using ferry::Buffer;
using ferry::ComputeContext;
using ferry::KernelContext;
using ferry::Range;
FERRY_KERNEL void rw(KernelContext kc, int *v) { v[kc.x] += 1; }
FERRY_KERNEL void ro(KernelContext kc, const int *in, int *out) { out[kc.x] = in[kc.x]; }
FERRY_COMPUTE void bump(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
}
FERRY_COMPUTE void pair(ComputeContext &cc, const Buffer<int> &a, Buffer<int> &b) {
  cc.dispatch(ro, Range(a.size()), a, b);
}
FERRY_COMPUTE void peek(ComputeContext &cc, Buffer<int> &v) {
  cc.dispatch(rw, Range(v.size()), v);
  std::printf("%d\n", v[0]);
}
)";

/// "L2" -> "u v": per loop whose first line is marked `// L2`, the buffers
/// it leaves on the device, joined with spaces.
std::map<std::string, std::string> leftAt(Source &S,
                                          const ferry::ProgramPlan &Plan,
                                          const std::vector<std::string> &Marks) {
  std::map<std::string, std::string> Out;
  for (const ferry::LeftOnDeviceInLoop &L : Plan.LeftOnDevice) {
    unsigned Line = S.line(L.Loop->getBeginLoc());
    std::string Mark = "?";
    for (const std::string &M : Marks)
      if (S.lineOf("// " + M + "\n") == Line)
        Mark = M;
    // A member the function may not name is held with its whole object.
    std::string Names;
    for (size_t I = 0; I < L.Buffers.size(); ++I)
      Names += (I ? " " : "") + std::string(L.Whole[I] ? "whole:" : "") +
               ferry::keptSpelling(L.Buffers[I], L.Paths[I]);
    Out[Mark] = Names;
  }
  return Out;
}

} // namespace

TEST_CASE("a loop leaves on the device what only its kernels use",
          "[plan][left-on-device]") {
  Source S(std::string(Prelude) + R"(
void show(const Buffer<int> &b) { std::printf("%d\n", b[0]); }
int tick(int n) { return n + 1; }

void plain() {
  Buffer<int> u(8), v(8), in(8);
  ferry::Accelerator acc;
  for (int s = 0; s < 4; ++s) { // A1
    acc.compute([&](ComputeContext &cc) { bump(cc, u); });
    acc.compute([&](ComputeContext &cc) { pair(cc, in, v); });
    s = tick(s);
  }
  show(u);
}

void readsOnTheHost() {
  Buffer<int> u(8), v(8);
  ferry::Accelerator acc;
  for (int s = 0; s < 4; ++s) { // B1
    acc.compute([&](ComputeContext &cc) { bump(cc, u); bump(cc, v); });
    std::printf("%d\n", u[0]);
  }
  for (int s = 0; s < 4; ++s) { // B2
    acc.compute([&](ComputeContext &cc) { bump(cc, u); });
    show(v);
  }
  for (int s = 0; s < 4; ++s) // B3
    acc.compute([&](ComputeContext &cc) { peek(cc, u); bump(cc, v); });
  for (int s = 0; s < 4; ++s) { // B4
    acc.compute([&](ComputeContext &cc) {
      bump(cc, u);
      v[1] = 2;
      bump(cc, v);
    });
  }
}

void nested() {
  Buffer<int> u(8), v(8);
  ferry::Accelerator acc;
  for (int t = 0; t < 2; ++t) { // N1
    for (int s = 0; s < 4; ++s) // N2
      acc.compute([&](ComputeContext &cc) { bump(cc, u); bump(cc, v); });
    acc.compute([&](ComputeContext &cc) { bump(cc, v); });
    u[0] = 1;
  }
}

void reachedOtherwise() {
  Buffer<int> u(8), v(8), w(8);
  ferry::Accelerator acc;
  const int *p = u.data();
  auto look = [&] { return v[0]; };
  for (int s = 0; s < 4; ++s) { // R1
    acc.compute([&](ComputeContext &cc) { bump(cc, u); bump(cc, v); bump(cc, w); });
    std::printf("%d %d\n", p[0], look());
  }
}

void twoAccelerators() {
  Buffer<int> u(8);
  ferry::Accelerator a, b;
  for (int s = 0; s < 4; ++s) { // T1
    a.compute([&](ComputeContext &cc) { bump(cc, u); });
    b.compute([&](ComputeContext &cc) { bump(cc, u); });
  }
}

void jumps() {
  Buffer<int> u(8);
  ferry::Accelerator acc;
  int s = 0;
again:
  for (; s < 4; ++s) // J1
    acc.compute([&](ComputeContext &cc) { bump(cc, u); });
  if (s < 8)
    goto again;
}

struct Model {
  Buffer<int> u{8}, w{8};
  FERRY_COMPUTE void step(ComputeContext &cc) { bump(cc, u); }
};

void objectParameter(ferry::Accelerator &acc, Model &m, int steps) {
  for (int s = 0; s < steps; ++s) // M1
    acc.compute([&](ComputeContext &cc) { m.step(cc); bump(cc, m.w); });
}

struct Solver {
  ferry::Accelerator acc_;
  Buffer<int> cur_{8}, next_{8};
  void run(int steps) {
    for (int s = 0; s < steps; ++s) { // S1
      acc_.compute([&](ComputeContext &cc) { pair(cc, cur_, next_); });
      acc_.compute([&](ComputeContext &cc) { bump(cc, cur_); });
    }
    std::printf("%d\n", next_[0]);
  }
};

class Sim {
public:
  void run(ferry::Accelerator &acc, int steps) {
    for (int s = 0; s < steps; ++s) // P1
      acc.compute([&](ComputeContext &cc) { step(cc); });
  }
  int first() const { return state_[0]; }

private:
  FERRY_COMPUTE void step(ComputeContext &cc) {
    pair(cc, state_, flux_);
    bump(cc, state_);
  }
  Buffer<int> state_{8}, flux_{8};
};
)");
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  std::map<std::string, std::string> Left = leftAt(
      S, Plan,
      {"A1", "B1", "B2", "B3", "B4", "N1", "N2", "R1", "T1", "J1", "M1", "S1",
       "P1"});
  // Both buffers the kernels write, not `in`, which they only read (its
  // exits copy nothing home); the host's own scalars do not matter.
  CHECK(Left["A1"] == "u v");
  // A host read of `u` each trip keeps `u` out, and so does a helper that
  // reads `v`; in the compute's own code (a compute function's host read,
  // a host write in a planned lambda) too.
  CHECK(Left["B1"] == "v");
  CHECK(Left["B2"] == "u");
  CHECK(Left["B3"] == "v");
  CHECK(Left["B4"] == "u");
  // `v` in the outer loop, `u` in the inner one alone: the outer one's
  // host writes `u` between its trips.
  CHECK(Left["N1"] == "v");
  CHECK(Left["N2"] == "u");
  // A pointer bound to `u` and a lambda that reads `v` may read them
  // unnamed; `w` is only the kernels'.
  CHECK(Left["R1"] == "w");
  // Two accelerators: no line can say which device holds the copy.
  CHECK(Left.count("T1") == 0);
  // A `goto` could jump into the block.
  CHECK(Left.count("J1") == 0);
  // Through a member compute function and an object parameter's path.
  CHECK(Left["M1"] == "m.u m.w");
  // A member function's object, through `this`, on the object's own
  // accelerator.
  CHECK(Left["S1"] == "this->cur_ this->next_");
  // A private scratch member only compute code names never comes home: no
  // block holds it.
  CHECK(Left["P1"] == "this->state_");
  CHECK(Left.count("?") == 0);
}

TEST_CASE("a pointer that may outlive a call keeps its element type home",
          "[plan][left-on-device]") {
  // A global that may hold a pointer to `int` elements, even a const one,
  // may be read by any host code without naming the buffer.
  Source S(std::string(Prelude) + R"(
const int *view = nullptr;
void frames(Buffer<float> &f) {
  Buffer<int> u(8);
  ferry::Accelerator acc;
  for (int s = 0; s < 4; ++s) // G1
    acc.compute([&](ComputeContext &cc) { bump(cc, u); });
}
)");
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  CHECK(leftAt(S, Plan, {"G1"}).count("G1") == 0);
}

TEST_CASE("a loop over an object with private members holds the whole object",
          "[plan][left-on-device]") {
  Source S(std::string(Prelude) + R"(
class Model {
public:
  FERRY_COMPUTE void step(ComputeContext &cc) { pair(cc, in_, u_); bump(cc, v_); }
  FERRY_COMPUTE void touch(ComputeContext &cc) { bump(cc, u_); v_[0] = 1; }
  int first() const { return u_[0]; }
  int other() const { return in_[0]; }
  void poke() { in_[1] = 3; }

private:
  Buffer<int> in_{8}, u_{8}, v_{8};
};

class Loose {
public:
  FERRY_COMPUTE void step(ComputeContext &cc) { bump(cc, u_); }
  int first() const { return u_[0] + w_[0]; }
  ferry::Buffer<float> f;

private:
  Buffer<int> u_{8}, w_{8};
};
float *keep = nullptr;

void run(ferry::Accelerator &acc, Model *m, int steps) {
  for (int s = 0; s < steps; ++s) // W1
    acc.compute([&](ComputeContext &cc) { m->step(cc); });
}
struct Base {
  Buffer<int> w{8};
};
class Derived : public Base {
public:
  FERRY_COMPUTE void step(ComputeContext &cc) { bump(cc, u_); bump(cc, w); }

private:
  Buffer<int> u_{8};
};
void drive(ComputeContext &cc, Model *m) { m->step(cc); }
void peekThrough(ComputeContext &cc, Model *m) { m->step(cc); m = nullptr; }

int main() {
  ferry::Accelerator acc;
  Model model;
  Loose loose;
  for (int s = 0; s < 4; ++s) // W2
    acc.compute([&](ComputeContext &cc) { model.step(cc); });
  for (int s = 0; s < 4; ++s) { // W3
    acc.compute([&](ComputeContext &cc) { model.step(cc); });
    std::printf("%d\n", model.first());
  }
  for (int s = 0; s < 4; ++s) { // W4
    acc.compute([&](ComputeContext &cc) { model.step(cc); });
    std::printf("%d\n", model.other());
  }
  for (int s = 0; s < 4; ++s) { // W5
    acc.compute([&](ComputeContext &cc) { model.step(cc); });
    model.poke();
  }
  for (int s = 0; s < 4; ++s) // W6
    acc.compute([&](ComputeContext &cc) { model.touch(cc); });
  for (int s = 0; s < 4; ++s) // W7
    acc.compute([&](ComputeContext &cc) { loose.step(cc); });
  for (int s = 0; s < 4; ++s) // W8
    acc.compute([&](ComputeContext &cc) { drive(cc, &model); });
  for (int s = 0; s < 4; ++s) // W9
    acc.compute([&](ComputeContext &cc) { peekThrough(cc, &model); });
  Derived derived;
  for (int s = 0; s < 4; ++s) { // W10
    acc.compute([&](ComputeContext &cc) { derived.step(cc); });
    std::printf("%d\n", derived.w[0]);
  }
  std::printf("%d %d\n", model.first(), loose.first());
  run(acc, &model, 2);
}
)");
  ferry::ProgramPlan Plan = ferry::planProgram(S.context());
  std::map<std::string, std::string> Left =
      leftAt(S, Plan,
             {"W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10"});
  // The kernels alone use the model's buffers: `u_`, which they write,
  // held by the whole object, through a pointer too. (`v_`, which only
  // compute code names, never comes home: no block needs it.)
  CHECK(Left["W1"] == "whole:m->u_");
  CHECK(Left["W2"] == "whole:model.u_");
  // The host reads a member each trip: the whole object would hold it.
  // Only reading `in_` (which no kernel writes) or writing it bars the
  // object all the same: the scope would carry `in_`'s state past them.
  CHECK(Left.count("W3") == 0);
  CHECK(Left.count("W4") == 0);
  CHECK(Left.count("W5") == 0);
  // Host code in the compute writes `v_`.
  CHECK(Left.count("W6") == 0);
  // A buffer of the object Ferry does not follow (a global `float *` may
  // point into `f`): no scope may hold the object whole.
  CHECK(Left.count("W7") == 0);
  // Handed by address to a helper, followed through its pointer; not
  // where the helper does anything else with the pointer.
  CHECK(Left["W8"] == "whole:model.u_");
  CHECK(Left.count("W9") == 0);
  // A base class's buffer lies in the object's bytes too, and no path of
  // the class's fields spells it: the host reads it every trip.
  CHECK(Left.count("W10") == 0);
  CHECK(Left.count("?") == 0);
}
