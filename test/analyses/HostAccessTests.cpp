// Host access events in compute functions, in program order, with C++'s
// traps: rvalue use of a non-const operator[], range-for by value / const& /
// &, data() and iterators, standard algorithms, visible and invisible
// functions.

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {
const char *Prelude = R"cpp(
#include <ferry/ferry.hpp>
#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>
using FB = ferry::Buffer<float>;
FERRY_KERNEL void k(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }
)cpp";

std::string withPrelude(const char *Body) { return std::string(Prelude) + Body; }

/// The events of `Function`, as "LINE MODE TARGETS", lines relative to the
/// marker line `// @0` (so the expectations read like the code).
std::vector<std::string> relativeTrace(Source &S, const std::string &Function) {
  unsigned Base = S.lineOf("// @0");
  std::vector<std::string> Out;
  for (const std::string &T : S.trace(Function)) {
    unsigned Line = std::stoul(T.substr(0, T.find(' ')));
    Out.push_back(std::to_string(static_cast<int>(Line) - static_cast<int>(Base)) +
                  T.substr(T.find(' ')));
  }
  return Out;
}
} // namespace

TEST_CASE("host: subscripts, compound assignment and size", "[host]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, const FB &c) { // @0
  float x = a[0];
  a[1] = x;
  a[2] += 1.0f;
  ++b[0];
  b[1]--;
  float y = a[0] + c[0] * 2.0f;
  auto n = a.size() + b.bytes() + (c.empty() ? 1 : 0);
  float &r = b[2];
  float z = r;
  r = 3.0f;
  const float &cr = b[3];
  float w = cr;
  if (a[4] > 0.0f) a[5] = b[5];
  std::printf("%f\n", c[1]);
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "1 read a",
                                     "2 write a",
                                     "3 read-write a",
                                     "4 read-write b",
                                     "5 read-write b",
                                     "6 read a",
                                     "6 read c",
                                     // size(), bytes(), empty(): nothing
                                     // a reference taken: no access yet
                                     "9 read b",
                                     "10 write b",
                                     "12 read b",
                                     "13 read a",
                                     "13 read b", // C++17: right, then left
                                     "13 write a",
                                     "14 read c",
                                 });
}

TEST_CASE("host: range-for, data() and iterators", "[host]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &c, FB &d, const FB &e) { // @0
  float s = 0;
  for (float v : a) s += v;
  for (const float &v : b) s += v;
  for (float &v : c) v = 0.0f;
  for (auto &v : e) s += v;
  float *p = d.data();
  float q = p[0];
  p[1] = q;
  const float *cp = e.data();
  s += cp[2];
  float *it = a.begin() + 1;
  *it = 2.0f;
  float first = *b.begin();
  b.data()[3] = 4.0f;
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "2 read a",
                                     "3 read b",
                                     "4 read-write c",
                                     "5 read e",
                                     "6 escape d",
                                     "7 read d",
                                     "8 write d",
                                     "9 read e",
                                     "10 read e",
                                     "11 escape a",
                                     "12 write a",
                                     "13 read b",
                                     "14 write b",
                                 });
}

TEST_CASE("host: standard algorithms", "[host]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &c, FB &d, std::vector<float> &v) { // @0
  std::copy(a.begin(), a.end(), b.begin());
  float s = std::accumulate(c.begin(), c.end(), 0.0f);
  std::fill(d.begin(), d.end(), 1.0f);
  std::sort(a.begin(), a.end());
  std::transform(a.begin(), a.end(), c.begin(), d.begin(), std::plus<float>());
  std::copy(v.begin(), v.end(), a.begin());
  auto m = std::max_element(b.begin(), b.end());
  std::fill_n(c.begin(), 3, 0.0f);
  std::memcpy(d.data(), a.data(), a.bytes());
  std::iota(b.begin(), b.end(), 0.0f);
  float t = *std::find(c.begin(), c.end(), 2.0f);
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "1 read a", "1 read a", "1 write b",
                                     "2 read c", "2 read c",
                                     "3 write d", "3 write d",
                                     "4 read-write a", "4 read-write a",
                                     "5 read a", "5 read a", "5 read c",
                                     "5 write d",
                                     "6 write a",
                                     "7 read b", "7 read b",
                                     "8 write c",
                                     // memcpy reads its source first
                                     "9 read a", "9 write d",
                                     "10 write b", "10 write b",
                                     // and the element found, read
                                     "11 read c", "11 read c", "11 read c",
                                 });
  std::vector<HostEvent> E = S.events("f");
  // fill over begin()..end() overwrites the whole buffer; copy into b's
  // start writes a.size() elements, into a's start v.size().
  CHECK(E[5].Overwrites);
  CHECK(E[6].Overwrites);
  REQUIRE(E[2].WrittenCountOf);
  CHECK(S.line(E[2].WrittenCountOf->getBeginLoc()) == S.lineOf("std::copy(a.begin()"));
  // From a std::vector, v.size() of them (issue 16, backprop): the runtime
  // decides whether that covers `a`.
  REQUIRE(E[13].WrittenCountOf);
  CHECK(S.line(E[13].WrittenCountOf->getBeginLoc()) ==
        S.lineOf("std::copy(v.begin()"));
  REQUIRE(E[16].WrittenCount);
}

TEST_CASE("host: counted writes from a buffer's start", "[host]") {
  Source S(withPrelude(R"cpp(
void bump(int &i) { ++i; }
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &c, const float *p, int n) { // @0
  a[0] = 1.0f;
  a[1] = 2.0f;
  std::copy(p, p + n, b.begin());
  for (int i = 0; i < n; ++i)
    c[i] = p[i];
  for (int i = 0; i < n; ++i)
    c[i] = c[i] + 1.0f;
  for (int i = 0; i < n; ++i) {
    if (p[i] > 0)
      continue;
    c[i] = 0.0f;
  }
  for (int i = 0; i < n; ++i) {
    c[i] = 0.0f;
    bump(i);
  }
  for (int i = 0; i < n; ++i) {
    c[i] = 0.0f;
    int &r = n;
    r = std::min(i, n);
  }
  for (int i = 0; i < n; ++i)
    c[i] = p[std::min(i, n)];
}
)cpp"));
  std::vector<HostEvent> E = S.events("f");
  REQUIRE(E.size() == 10);
  // b[0] = v: the first one element.
  CHECK(E[0].WrittenCountConst == 1);
  CHECK(E[1].WrittenCountConst == 0);
  // std::copy(p, p + n, b.begin()): n of them.
  REQUIRE(E[2].WrittenCount);
  CHECK(S.line(E[2].WrittenCount->getBeginLoc()) == S.lineOf("std::copy(p"));
  // The first loop writes n elements, counted at the loop.
  REQUIRE(E[3].WrittenCount);
  CHECK(E[3].CountingLoop);
  // Not counted: a loop that also reads c, one that may skip the store
  // (continue), one that changes its counter through a reference, and one
  // that changes its bound through a reference.
  for (int K : {4, 5, 6, 7, 8})
    CHECK_FALSE(E[K].WrittenCount);
  // std::min takes const references: the counter and bound stay fixed.
  REQUIRE(E[9].WrittenCount);
  CHECK(E[9].CountingLoop);
}

TEST_CASE("host: visible and invisible functions", "[host]") {
  Source S(withPrelude(R"cpp(
void opaque(FB &b);
void peek(const FB &b);
void raw(float *p, const float *q, int n);
static float sum(FB &b) { float s = 0; for (float v : b) s += v; return s; }
static void zero(FB &b) { std::fill(b.begin(), b.end(), 0.0f); }
static void twice(FB *b) { for (float &v : *b) v *= 2.0f; }
static void nothing(FB &b, int n) { (void)n; (void)b.size(); }
static void deeper(FB &b) { zero(b); }
static void elems(float *p, const float *q) { p[0] = q[0]; }
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &c, FB &d,
                     FB &e, FB &g) { // @0
  opaque(a);
  peek(b);
  float s = sum(c);
  zero(d);
  twice(&e);
  nothing(g, 3);
  deeper(a);
  elems(a.data(), b.data());
  raw(c.data(), d.data(), 4);
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "1 escape a",
                                     "2 read b",
                                     "3 read c",
                                     "4 write d",
                                     "5 read-write e",
                                     // nothing(g): no access
                                     "7 write a",
                                     "8 write a",
                                     "8 read b",
                                     "9 escape c",
                                     "9 read d",
                                 });
  std::vector<Access> Sum = S.hostSummary("sum");
  CHECK(Sum[0] == Access::Read);
  CHECK(S.hostSummary("zero")[0] == Access::Write);
  CHECK(S.hostSummary("deeper")[0] == Access::Write);
  CHECK(S.hostSummary("twice")[0] == Access::ReadWrite);
  CHECK(S.hostSummary("nothing")[0] == Access::None);
  std::vector<Access> Elems = S.hostSummary("elems");
  CHECK(Elems[0] == Access::Write);
  CHECK(Elems[1] == Access::Read);
}

TEST_CASE("host: lambdas, moves, locals and swaps of buffers", "[host]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, int n) { // @0
  FB t(n);
  FB u{1.0f, 2.0f};
  auto show = [&] { return a[0]; };
  std::swap(a, b);
  FB w(std::move(t));
  t = std::move(u);
  cc.dispatch(k, ferry::Range(n), a);
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "1 create t",
                                     "2 create u",
                                     "3 escape a",
                                     "4 swap a<->b",
                                     "5 move w",
                                     "5 move t",
                                     "6 move t",
                                     "6 move u",
                                 });
}

TEST_CASE("host: pointers kept, compared and dereferenced", "[host]") {
  Source S(withPrelude(R"cpp(
static float *at(float *p, int i) { return p + i; }
void keep(float *p);
struct Holder { float *p; };
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &c, FB &d, const FB &e, int n) { // @0
  for (float *p = a.begin(); p != a.end(); ++p)
    *p = 0.0f;
  const float *q = b.data();
  float s = q[1] + *(q + 2);
  if (q != nullptr && q < b.data() + n) s += 1.0f;
  *at(c.data(), 3) = s;
  float x = *at(c.data(), 4);
  (void)d[0];
  keep(d.data() + 1);
  Holder h{d.data()};
  float *r = n > 0 ? c.data() : d.data();
  r[0] = 1.0f;
  float y = e[0];
  *std::max_element(a.begin(), a.end()) = 0.0f;
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "1 escape a", // begin() kept in p
                                     // a.end() is only compared
                                     "2 write a",
                                     "3 read b",
                                     "4 read b", "4 read b",
                                     // comparisons only
                                     "6 write c",
                                     "7 read c",
                                     // (void)d[0] loads nothing
                                     "9 escape d",
                                     "10 escape d",
                                     "11 escape c", "11 escape d",
                                     "12 write c|d",
                                     "13 read e",
                                     "14 read a", "14 read a", "14 write a",
                                 });
}

TEST_CASE("host: helpers with buffers in structs, by pointer, returning",
          "[host]") {
  Source S(withPrelude(R"cpp(
struct Pair { FB in; FB out; };
static void step(Pair &p) { p.out[0] = p.in[0]; }
static void look(const Pair &p) { float v = p.in[0]; (void)v; }
static void viaPointer(FB *b, const FB *c) { (*b)[0] = (*c)[0]; }
static FB &pick(FB &x, FB &y, bool first) { return first ? x : y; }
FERRY_COMPUTE void f(ferry::ComputeContext &cc, Pair &pair, FB &a, FB &b, bool up) { // @0
  step(pair);
  float v = pair.in[1];
  look(pair);
  viaPointer(&a, &b);
  pick(a, b, up)[0] = 1.0f;
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     // the struct handed whole: each of
                                     // its buffers by its access path,
                                     // also one the function never names
                                     "1 read-write pair.in",
                                     "1 read-write pair.out",
                                     "2 read pair.in",
                                     "3 read pair.in",
                                     "3 read pair.out",
                                     "4 write a",
                                     "4 read b",
                                     // pick() only names its arguments;
                                     // what it returns may be any float
                                     // buffer
                                     "5 write a|b|pair.in|pair.out",
                                 });
  std::vector<HostEvent> E = S.events("f");
  CHECK(E[1].Targets.Exact);
  CHECK(E[0].Targets.Exact);
  CHECK(S.hostSummary("pick")[0] == Access::None);
  std::vector<Access> Step = S.hostSummary("step");
  REQUIRE(Step.size() == 1);
  std::vector<Access> View = S.hostSummary("viaPointer");
  CHECK(View[0] == Access::Write);
  CHECK(View[1] == Access::Read);
}

TEST_CASE("host: through a Buffer pointer, std containers, compute callees",
          "[host]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void inner(ferry::ComputeContext &cc, FB &x) {
  cc.dispatch(k, ferry::Range(x.size()), x);
}
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB *p, int n) { // @0
  auto &x = a;
  x[0] = 1.0f;
  p = &b;
  (*p)[1] = 2.0f;
  p->data()[2] = 3.0f;
  inner(cc, *p);
  std::vector<float> v(a.begin(), a.end());
  v.assign(b.begin(), b.end());
  v.push_back(a[0]);
  float s = p->size() + std::accumulate(p->begin(), p->end(), 0.0f);
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "2 write a",
                                     "4 write b",
                                     "5 write b",
                                     // a compute function: handed over
                                     "6 read-write b",
                                     "7 read a", "7 read a",
                                     "8 read b", "8 read b",
                                     "9 read a",
                                     "10 read b", "10 read b",
                                 });
}

TEST_CASE("host: a dispatch's range and scalars are host reads; moves",
          "[host]") {
  Source S(withPrelude(R"cpp(
FERRY_KERNEL void scale(ferry::KernelContext kc, float *a, float f) { a[kc.x] *= f; }
static void sink(FB b) { (void)b.size(); }
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &sizes) { // @0
  cc.dispatch(scale, ferry::Range(static_cast<int>(sizes[0])), b, a[3]);
  FB t(4);
  sink(std::move(t));
}
)cpp"));
  CHECK(relativeTrace(S, "f") == std::vector<std::string>{
                                     "1 read sizes",
                                     "1 read a",
                                     "2 create t",
                                     "3 move t",
                                 });
}

TEST_CASE("host: a container of buffers handed to a helper", "[host]") {
  Source S(withPrelude(R"cpp(
static void zeroAll(std::vector<FB> &all) {
  for (FB &b : all) std::fill(b.begin(), b.end(), 0.0f);
}
void opaqueAll(const std::vector<FB> &all);
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, std::vector<FB> &many) { // @0
  zeroAll(many);
  opaqueAll(many);
}
)cpp"));
  std::vector<HostEvent> E = S.events("f");
  REQUIRE(E.size() == 2);
  CHECK(hostEventName(E[0]) == std::string("read-write"));
  // The container's buffers, one object for all of them (issue 23).
  CHECK(S.targets(E[0]) == "many");
  CHECK_FALSE(E[0].Targets.Exact);
  CHECK_FALSE(E[0].Targets.Guessed);
  CHECK(hostEventName(E[1]) == std::string("read"));
}
