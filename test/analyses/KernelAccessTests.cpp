// Kernel buffer access: per parameter none / read / write / read-write, and
// whether the writes cover the range; through helpers, aliases, pointer
// arithmetic, members of elements, compound assignment and references; and
// the annotation errors, located.

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {

const char *Patterns = R"cpp(
#include <ferry/ferry.hpp>
struct P { float x, y; };

FERRY_KERNEL void untouched(ferry::KernelContext kc, float *a, int n) {}
FERRY_KERNEL void squares(ferry::KernelContext kc, int *values) {
  if (kc.x < kc.maxX)
    values[kc.x] = values[kc.x] * values[kc.x];
}
FERRY_KERNEL void fill(ferry::KernelContext kc, int *out, int base) {
  out[kc.x] = base + kc.x;
}
FERRY_KERNEL void copyGuarded(ferry::KernelContext kc, const float *in, float *out, int n) {
  if (kc.x >= n) return;
  out[kc.x] = in[kc.x];
}
FERRY_KERNEL void partial(ferry::KernelContext kc, float *out) {
  if (kc.x % 2 == 0)
    out[kc.x] = 1.0f;
}
FERRY_KERNEL void shifted(ferry::KernelContext kc, float *out) {
  out[kc.x + 1] = 1.0f;
}
FERRY_KERNEL void grid(ferry::KernelContext kc, float *out) {
  out[kc.y * kc.maxX + kc.x] = 0.0f;
}
FERRY_KERNEL void interiorRows(ferry::KernelContext kc, float *next) {
  next[(kc.y + 1) * kc.maxX + kc.x] = 2.0f;
}
FERRY_KERNEL void afterHeader(ferry::KernelContext kc, float *out, int n) {
  out[n + kc.x] = 3.0f;
}
FERRY_KERNEL void strided(ferry::KernelContext kc, float *out) {
  out[2 * kc.x + 1] = 4.0f;
}
FERRY_KERNEL void volume(ferry::KernelContext kc, float *out) {
  int i = (kc.z * kc.maxY + kc.y) * kc.maxX + kc.x;
  out[i] = 0.0f;
}
FERRY_KERNEL void compound(ferry::KernelContext kc, float *acc, const float *in) {
  acc[kc.x] += in[kc.x];
}
FERRY_KERNEL void increment(ferry::KernelContext kc, int *counts) {
  counts[kc.x]++;
}

// Helpers at any depth, by pointer and by reference.
static float readAt(const float *p, int i) { return p[i]; }
static void store(float *p, int i, float v) { p[i] = v; }
static void storeDeep(float *p, int i, float v) { store(p, i, v); }
static void bump(float &r) { r = r + 1.0f; }
static void setRef(float &r, float v) { r = v; }
static float getRef(const float &r) { return r; }
FERRY_KERNEL void helpers(ferry::KernelContext kc, float *a, float *b, float *c,
                          float *d, float *e, float *f) {
  float v = readAt(a, kc.x);
  storeDeep(b, kc.x, v);
  bump(c[kc.x]);
  setRef(d[kc.x], v);
  v += getRef(e[kc.x]);
  storeDeep(f + kc.x, 0, v);
}

// Local aliases and pointer arithmetic.
FERRY_KERNEL void aliases(ferry::KernelContext kc, float *a, float *b, float *c,
                          float *d, float *e) {
  float *row = a + kc.y * kc.maxX;
  row[kc.x] = 0.0f;
  const float *q = b;
  q += 1;
  float v = *(q + kc.x);
  float &r = c[kc.x];
  r = v;
  float *p = nullptr;
  p = d;
  float w = p[kc.x];
  float *s = e;
  s++;
  *s = w;
}

// Members of elements.
FERRY_KERNEL void members(ferry::KernelContext kc, P *ps, const P *qs, P *rs, P *ts) {
  ps[kc.x].x = qs[kc.x].y;
  P &r = rs[kc.x];
  r.y += 1.0f;
  float t = (ts + kc.x)->x;
  ps[kc.x].y = t;
}

// A whole-element store covers; a member store does not.
FERRY_KERNEL void memberStore(ferry::KernelContext kc, P *ps) {
  ps[kc.x].x = 1.0f;
}
FERRY_KERNEL void wholeStore(ferry::KernelContext kc, P *ps) {
  P p; p.x = 1.0f; p.y = 2.0f;
  ps[kc.x] = p;
}

// The store covers, even inside a bounded guard on the kernel's range.
FERRY_KERNEL void guardedIn(ferry::KernelContext kc, float *out, int n) {
  if (kc.x < n && kc.y < kc.maxY)
    out[kc.x] = 2.0f;
}
FERRY_KERNEL void readThenWrite(ferry::KernelContext kc, float *out) {
  float old = out[kc.x];
  out[kc.x] = old + 1.0f;
}
FERRY_KERNEL void loopWrite(ferry::KernelContext kc, float *out, int n) {
  for (int i = 0; i < n; ++i)
    out[kc.x * n + i] = 0.0f;
}
FERRY_KERNEL void earlyExit(ferry::KernelContext kc, float *out, const float *in) {
  if (in[kc.x] < 0.0f) return;
  out[kc.x] = in[kc.x];
}
)cpp";

} // namespace

TEST_CASE("kernel access: none, read, write, read-write and coverage",
          "[kernel]") {
  Source S(Patterns);
  REQUIRE(S.Diagnostics.empty());

  ParamAccess A = S.param("untouched", "a");
  CHECK(A.Inferred == Access::None);
  CHECK_FALSE(A.WritesCoverRange);
  CHECK(S.kernel("untouched").Buffers.size() == 1); // `n` is no buffer

  // HAT's squares: read and written, every element.
  A = S.param("squares", "values");
  CHECK(A.Inferred == Access::ReadWrite);
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageDims == 1);
  CHECK(A.CoverageBoundParam == -1);
  CHECK(S.line(A.FirstRead) == S.lineOf("values[kc.x] = values"));
  CHECK(S.line(A.FirstWrite) == S.lineOf("values[kc.x] = values"));

  // The write-only kernel.
  A = S.param("fill", "out");
  CHECK(A.Inferred == Access::Write);
  CHECK(A.WritesCoverRange);
  CHECK(overwritesWholeRange(A, 1));
  CHECK_FALSE(overwritesWholeRange(A, 2));
  CHECK_FALSE(needsDeviceCopyBefore(A, 1));
  CHECK(leavesDeviceNewer(A));

  A = S.param("copyGuarded", "out");
  CHECK(A.Inferred == Access::Write);
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageBoundParam == 3);
  CHECK(S.param("copyGuarded", "in").Inferred == Access::Read);

  A = S.param("partial", "out");
  CHECK(A.Inferred == Access::Write);
  CHECK_FALSE(A.WritesCoverRange);
  CHECK(needsDeviceCopyBefore(A, 1));

  // The linear index plus an offset covers the range from there.
  A = S.param("shifted", "out");
  CHECK(A.WritesCoverRange);
  REQUIRE(A.CoverageOffset.size() == 1);
  CHECK(A.CoverageOffset[0].Coef == 1);
  CHECK(A.CoverageOffset[0].RangeDims.empty());
  CHECK(A.CoverageOffset[0].Params.empty());

  // A grid's interior rows: from the second row on (one row is kc.maxX).
  A = S.param("interiorRows", "next");
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageDims == 2);
  REQUIRE(A.CoverageOffset.size() == 1);
  CHECK(A.CoverageOffset[0].Coef == 1);
  CHECK(A.CoverageOffset[0].RangeDims == std::vector<int>{0});
  CHECK(A.CoverageOffset[0].Params.empty());
  A = S.param("afterHeader", "out");
  CHECK(A.WritesCoverRange);
  REQUIRE(A.CoverageOffset.size() == 1);
  CHECK(A.CoverageOffset[0].Params == std::vector<int>{2});
  // Every other element from the second: not the range's elements.
  CHECK_FALSE(S.param("strided", "out").WritesCoverRange);

  A = S.param("grid", "out");
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageOffset.empty());
  CHECK(A.CoverageDims == 2);
  CHECK(overwritesWholeRange(A, 2));
  CHECK_FALSE(overwritesWholeRange(A, 1));

  A = S.param("volume", "out");
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageDims == 3);

  A = S.param("compound", "acc");
  CHECK(A.Inferred == Access::ReadWrite);
  CHECK(A.WritesCoverRange);
  CHECK_FALSE(overwritesWholeRange(A, 1)); // it reads first
  CHECK(needsDeviceCopyBefore(A, 1));
  CHECK(S.param("compound", "in").Inferred == Access::Read);
  CHECK(S.param("increment", "counts").Inferred == Access::ReadWrite);

  A = S.param("guardedIn", "out");
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageBoundParam == 2);

  CHECK(S.param("readThenWrite", "out").Inferred == Access::ReadWrite);
  // A row per work-item, `out[kc.x * n + i]` for i < n: a grid whose
  // columns are the loop's (covers when the loop reaches the width).
  A = S.param("loopWrite", "out");
  CHECK(A.Inferred == Access::Write);
  CHECK(A.WritesCoverRange);
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.ColDim == -1);
  CHECK(A.Grid.ColBoundParam == 2);
  CHECK(A.Grid.WidthParam == 2);
  CHECK(A.Grid.RowDim == 0);
  // Work-items that return early on data skip their store.
  CHECK_FALSE(S.param("earlyExit", "out").WritesCoverRange);
}

TEST_CASE("kernel access through helpers, aliases and members", "[kernel]") {
  Source S(Patterns);

  CHECK(S.param("helpers", "a").Inferred == Access::Read);
  CHECK(S.param("helpers", "b").Inferred == Access::Write);
  CHECK(S.param("helpers", "c").Inferred == Access::ReadWrite);
  CHECK(S.param("helpers", "d").Inferred == Access::Write);
  CHECK(S.param("helpers", "e").Inferred == Access::Read);
  CHECK(S.param("helpers", "f").Inferred == Access::Write);
  // A store inside a helper does not count as covering the range.
  CHECK_FALSE(S.param("helpers", "b").WritesCoverRange);

  CHECK(S.param("aliases", "a").Inferred == Access::Write);
  CHECK(S.param("aliases", "b").Inferred == Access::Read);
  CHECK(S.param("aliases", "c").Inferred == Access::Write);
  CHECK(S.param("aliases", "d").Inferred == Access::Read);
  CHECK(S.param("aliases", "e").Inferred == Access::Write);

  CHECK(S.param("members", "ps").Inferred == Access::Write);
  CHECK(S.param("members", "qs").Inferred == Access::Read);
  CHECK(S.param("members", "rs").Inferred == Access::ReadWrite);
  CHECK(S.param("members", "ts").Inferred == Access::Read);

  ParamAccess A = S.param("memberStore", "ps");
  CHECK(A.Inferred == Access::Write);
  CHECK_FALSE(A.WritesCoverRange); // only .x of each element
  A = S.param("wholeStore", "ps");
  CHECK(A.Inferred == Access::Write);
  CHECK(A.WritesCoverRange);

  // Helper summaries are per parameter.
  FunctionAccessCache Cache;
  const std::vector<Access> &Store = Cache.summary(S.function("storeDeep"));
  REQUIRE(Store.size() == 3);
  CHECK(Store[0] == Access::Write);
  CHECK(Store[1] == Access::None);
  const std::vector<Access> &Bump = Cache.summary(S.function("bump"));
  CHECK(Bump[0] == Access::ReadWrite);
  CHECK(Cache.summary(S.function("getRef"))[0] == Access::Read);
}

TEST_CASE("kernel annotations: contradictions are located errors",
          "[kernel]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
static void put(float *p, int i) { p[i] = 0.0f; }
FERRY_KERNEL void roWritten(ferry::KernelContext kc, FERRY_RO float *a) {
  float v = a[kc.x];
  a[kc.x] = v * 2.0f;
}
FERRY_KERNEL void woRead(ferry::KernelContext kc, FERRY_WO float *b) {
  b[kc.x] = 1.0f;
  b[kc.x] += 2.0f;
}
FERRY_KERNEL void roThroughHelper(ferry::KernelContext kc, FERRY_RO float *c) {
  put(c, kc.x);
}
FERRY_KERNEL void fine(ferry::KernelContext kc, FERRY_RO const float *in,
                       FERRY_WO float *out, FERRY_RW float *acc) {
  out[kc.x] = in[kc.x];
  acc[kc.x] += in[kc.x];
}
FERRY_KERNEL void rwJustRead(ferry::KernelContext kc, FERRY_RW float *d) {
  float v = d[kc.x];
}
)cpp");
  S.kernel("roWritten");
  S.kernel("woRead");
  S.kernel("roThroughHelper");
  std::vector<Diagnostic> Errors = S.errors();
  REQUIRE(Errors.size() == 3);
  CHECK(Errors[0].Line == S.lineOf("a[kc.x] = v * 2.0f"));
  CHECK_THAT(Errors[0].Message, Catch::Contains("'a'") &&
                                    Catch::Contains("FERRY_RO") &&
                                    Catch::Contains("a[kc.x] = v * 2.0f"));
  CHECK(Errors[1].Line == S.lineOf("b[kc.x] += 2.0f"));
  CHECK_THAT(Errors[1].Message, Catch::Contains("'b'") &&
                                    Catch::Contains("FERRY_WO") &&
                                    Catch::Contains("b[kc.x] += 2.0f"));
  CHECK(Errors[2].Line == S.lineOf("put(c, kc.x);"));
  CHECK_THAT(Errors[2].Message, Catch::Contains("'c'") &&
                                    Catch::Contains("put(c, kc.x)"));

  // Notes point at the annotation.
  unsigned Notes = 0;
  for (const Diagnostic &D : S.Diagnostics)
    if (D.Level == "note" && D.Message.find("declared") != std::string::npos)
      ++Notes;
  CHECK(Notes >= 3);

  size_t Before = S.Diagnostics.size();
  KernelAccessSummary Fine = S.kernel("fine");
  CHECK(S.Diagnostics.size() == Before);
  CHECK(Fine.Buffers[0].Declared == DeclaredAccess::ReadOnly);
  CHECK(Fine.Buffers[1].Declared == DeclaredAccess::WriteOnly);
  CHECK(Fine.Buffers[2].Declared == DeclaredAccess::ReadWrite);
  CHECK(Fine.Buffers[2].Inferred == Access::ReadWrite);
  // FERRY_RW on a parameter that is only read is allowed (a promise of no
  // more than read-write), not an error.
  S.kernel("rwJustRead");
  CHECK(S.Diagnostics.size() == Before);
}

TEST_CASE("kernel annotations: a write through const is an error", "[kernel]") {
  // const_cast is the only way to write through `const T*` that compiles.
  Source S(R"cpp(
#include <ferry/ferry.hpp>
FERRY_KERNEL void sneaky(ferry::KernelContext kc, const float *in) {
  const_cast<float *>(in)[kc.x] = 0.0f;
}
)cpp");
  ParamAccess A = S.param("sneaky", "in");
  CHECK(A.Inferred == Access::Write);
  std::vector<Diagnostic> Errors = S.errors();
  REQUIRE(Errors.size() == 1);
  CHECK(Errors[0].Line == S.lineOf("const_cast"));
  CHECK_THAT(Errors[0].Message, Catch::Contains("'in'"));
}

TEST_CASE("kernel access: returned pointers, element methods, branches",
          "[kernel]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
struct V {
  float x, y;
  float norm() const { return x * x + y * y; }
  void clear() { x = 0.0f; y = 0.0f; }
};
static float *at(float *p, int i) { return p + i; }
static float &ref(float *p, int i) { return p[i]; }
static const float &cref(const float *p, int i) { return p[i]; }
static float *pick(float *p, float *q, bool first) { return first ? p : q; }
FERRY_KERNEL void returned(ferry::KernelContext kc, float *a, float *b, float *c,
                           float *d, float *e, float *f) {
  *at(a, kc.x) = 1.0f;
  ref(b, kc.x) += 2.0f;
  float v = cref(c, kc.x) + *at(d, kc.x);
  float *row = at(e, kc.x);
  row[0] = v;
  pick(e, f, kc.x > 2)[1] = v;
}
FERRY_KERNEL void methods(ferry::KernelContext kc, V *vs, V *ws, V *us) {
  float n = vs[kc.x].norm();
  ws[kc.x].clear();
  (us + kc.x)->clear();
}
FERRY_KERNEL void bothArms(ferry::KernelContext kc, float *out, const float *in) {
  if (in[kc.x] > 0.0f)
    out[kc.x] = 1.0f;
  else
    out[kc.x] = -1.0f;
}
FERRY_KERNEL void oneArm(ferry::KernelContext kc, float *out, const float *in) {
  if (in[kc.x] > 0.0f)
    out[kc.x] = 1.0f;
  else
    out[kc.x + 1] = -1.0f;
}
FERRY_KERNEL void loopBefore(ferry::KernelContext kc, float *out, const float *in, int n) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) {
    if (in[i] < 0.0f) break;
    sum += in[i];
  }
  { out[kc.x] = sum; }
}
FERRY_KERNEL void loopReturn(ferry::KernelContext kc, float *out, const float *in, int n) {
  for (int i = 0; i < n; ++i)
    if (in[i] < 0.0f) return;
  out[kc.x] = 0.0f;
}
FERRY_KERNEL void wrongMax(ferry::KernelContext kc, float *out) {
  if (kc.x < kc.maxY)
    out[kc.x] = 0.0f;
}
FERRY_KERNEL void columnGuard(ferry::KernelContext kc, float *out, int n) {
  if (kc.x < n)
    out[kc.y * kc.maxX + kc.x] = 0.0f;
}
FERRY_KERNEL void linearGuard(ferry::KernelContext kc, float *out, int n) {
  const int i = kc.y * kc.maxX + kc.x;
  if (i >= n) return;
  out[i] = 0.0f;
}
)cpp");
  CHECK(S.param("returned", "a").Inferred == Access::Write);
  CHECK(S.param("returned", "b").Inferred == Access::ReadWrite);
  CHECK(S.param("returned", "c").Inferred == Access::Read);
  CHECK(S.param("returned", "d").Inferred == Access::Read);
  CHECK(S.param("returned", "e").Inferred == Access::Write);
  CHECK(S.param("returned", "f").Inferred == Access::Write);
  FunctionAccessCache Cache;
  CHECK(Cache.returnsInto(S.function("at")) == std::set<unsigned>{0});
  CHECK(Cache.returnsInto(S.function("pick")) == std::set<unsigned>{0, 1});
  CHECK(Cache.summary(S.function("at"))[0] == Access::None);

  CHECK(S.param("methods", "vs").Inferred == Access::Read);
  CHECK(S.param("methods", "ws").Inferred == Access::ReadWrite);
  CHECK(S.param("methods", "us").Inferred == Access::ReadWrite);

  ParamAccess A = S.param("bothArms", "out");
  CHECK(A.Inferred == Access::Write);
  CHECK(A.WritesCoverRange);
  CHECK_FALSE(S.param("oneArm", "out").WritesCoverRange);
  // A break inside a loop ends the loop, not the work-item.
  CHECK(S.param("loopBefore", "out").WritesCoverRange);
  CHECK_FALSE(S.param("loopReturn", "out").WritesCoverRange);
  // kc.x < kc.maxY drops work-items of a wide range.
  CHECK_FALSE(S.param("wrongMax", "out").WritesCoverRange);
  // A bound on the column does not bound the linear index.
  CHECK_FALSE(S.param("columnGuard", "out").WritesCoverRange);
  A = S.param("linearGuard", "out");
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageDims == 2);
  CHECK(A.CoverageBoundParam == 2);
  CHECK(S.errors().empty());
}

TEST_CASE("kernel access: grid stores, `a[y * w + x]` and `v[i + j * n]`",
          "[kernel]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
#define NVAR 5
FERRY_KERNEL void rows(ferry::KernelContext kc, float *a, int w, int h) {
  int x = kc.x;
  int y = kc.y;
  if (y < h && x < w)
    a[y * w + x] = 1.0f;
}
FERRY_KERNEL void unguarded(ferry::KernelContext kc, float *a, int w) {
  a[w * kc.y + kc.x] = 1.0f;
}
FERRY_KERNEL void columns(ferry::KernelContext kc, float *a, int h) {
  a[kc.x * h + kc.y] = 1.0f;
}
FERRY_KERNEL void strided(ferry::KernelContext kc, float *v, int n) {
  const int i = kc.x;
  if (i >= n)
    return;
  for (int j = 0; j < NVAR; j++)
    v[i + j * n] = 2.0f;
}
FERRY_KERNEL void paramRows(ferry::KernelContext kc, float *v, int n, int k) {
  for (int j = 0; j < k; ++j)
    v[kc.x + j * n] = 2.0f;
}
FERRY_KERNEL void widthChanged(ferry::KernelContext kc, float *a, int w) {
  w = w / 2;
  a[kc.y * w + kc.x] = 1.0f;
}
FERRY_KERNEL void sameDim(ferry::KernelContext kc, float *a, int w) {
  a[kc.x * w + kc.x] = 1.0f;
}
FERRY_KERNEL void loopBreaks(ferry::KernelContext kc, float *v, int n,
                             const float *in) {
  for (int j = 0; j < 4; ++j) {
    if (in[j] < 0.0f)
      break;
    v[kc.x + j * n] = 2.0f;
  }
}
FERRY_KERNEL void counterChanged(ferry::KernelContext kc, float *v, int n) {
  for (int j = 0; j < 4; ++j) {
    v[kc.x + j * n] = 2.0f;
    j += 1;
  }
}
FERRY_KERNEL void plainInLoop(ferry::KernelContext kc, float *v, int k) {
  for (int j = 0; j < k; ++j)
    v[kc.x] = 2.0f;
}
FERRY_KERNEL void zeroThenAdd(ferry::KernelContext kc, float *t,
                              const float *a, int ni, int nj) {
  int j = kc.x;
  int i = kc.y;
  if (i < ni && j < nj) {
    t[i * nj + j] = 0.0f;
    for (int k = 0; k < 3; ++k)
      t[i * nj + j] += a[k];
  }
}
FERRY_KERNEL void readsAnother(ferry::KernelContext kc, float *t, int nj) {
  t[kc.y * nj + kc.x] = 0.0f;
  t[kc.y * nj + kc.x] += t[kc.x];
}
)cpp");
  REQUIRE(S.Diagnostics.empty());

  ParamAccess A = S.param("rows", "a");
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageDims == 2);
  CHECK(A.CoverageBoundParam == -1);
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.ColDim == 0);
  CHECK(A.Grid.ColBoundParam == 2);
  CHECK(A.Grid.WidthParam == 2);
  CHECK(A.Grid.RowDim == 1);
  CHECK(A.Grid.RowBoundParam == 3);
  CHECK(overwritesWholeRange(A, 2));
  CHECK_FALSE(overwritesWholeRange(A, 1));

  A = S.param("unguarded", "a");
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.ColBoundParam == -1);
  CHECK(A.Grid.RowBoundParam == -1);

  A = S.param("columns", "a"); // the column is y: a transposed grid
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.ColDim == 1);
  CHECK(A.Grid.RowDim == 0);
  CHECK(A.Grid.WidthParam == 2);

  A = S.param("strided", "v");
  CHECK(A.CoverageDims == 1);
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.ColBoundParam == 2);
  CHECK(A.Grid.WidthParam == 2);
  CHECK(A.Grid.RowDim == -1);
  CHECK(A.Grid.RowCount == 5);

  A = S.param("paramRows", "v");
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.RowBoundParam == 3);
  CHECK_FALSE(A.Grid.RowCount);

  // A width the kernel changes, one dimension twice, a loop that may stop
  // early or skip rows, a plain store a loop repeats (maybe never): no grid.
  for (const char *K : {"widthChanged", "sameDim", "loopBreaks",
                        "counterChanged", "plainInLoop"}) {
    INFO(K);
    CHECK_FALSE(S.param(K, K[0] == 'w' || K[0] == 's' ? "a" : "v")
                    .WritesCoverRange);
  }

  // 2mm's tmp: each element is zeroed, then added into at the same index.
  A = S.param("zeroThenAdd", "t");
  CHECK(A.Inferred == Access::ReadWrite);
  CHECK(A.Grid.Valid);
  CHECK(A.ReadsOnlyOwnWrites);
  CHECK(overwritesWholeRange(A, 2));
  A = S.param("readsAnother", "t");
  CHECK(A.Grid.Valid);
  CHECK_FALSE(A.ReadsOnlyOwnWrites);
}

TEST_CASE("kernel access: a volume walked plane by plane (hotspot3D)",
          "[kernel]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
FERRY_KERNEL void walk(ferry::KernelContext kc, float *out, int nx, int ny,
                       int nz) {
  int c = kc.x + kc.y * nx;
  int xy = nx * ny;
  out[c] = 1.0f;
  c += xy;
  for (int k = 1; k < nz - 1; ++k) {
    out[c] = 2.0f;
    c += xy;
  }
  out[c] = 3.0f;
  return;
}
FERRY_KERNEL void fixedPlanes(ferry::KernelContext kc, float *out, int nx,
                              int ny) {
  int c = kc.y * nx + kc.x;
  for (int k = 0; k < 4; ++k) {
    out[c] = 2.0f;
    c += nx * ny;
  }
}
FERRY_KERNEL void skipsAPlane(ferry::KernelContext kc, float *out, int nx,
                              int ny, int nz) {
  int c = kc.x + kc.y * nx;
  out[c] = 1.0f;
  c += nx * ny;
  c += nx * ny;
  for (int k = 2; k < nz; ++k) {
    out[c] = 2.0f;
    c += nx * ny;
  }
}
FERRY_KERNEL void twoSteps(ferry::KernelContext kc, float *out, int nx,
                           int ny, int nz) {
  int c = kc.x + kc.y * nx;
  for (int k = 0; k < nz; ++k) {
    out[c] = 2.0f;
    c += nx * ny;
    c += nx * ny;
  }
}
FERRY_KERNEL void otherStride(ferry::KernelContext kc, float *out, int nx,
                              int ny, int nz) {
  int c = kc.x + kc.y * nx;
  for (int k = 0; k < nz; ++k) {
    out[c] = 2.0f;
    c += ny * ny;
  }
}
FERRY_KERNEL void leavesEarly(ferry::KernelContext kc, float *out, int nx,
                              int ny, int nz, const float *in) {
  int c = kc.x + kc.y * nx;
  if (in[c] < 0.0f)
    return;
  for (int k = 0; k < nz; ++k) {
    out[c] = 2.0f;
    c += nx * ny;
  }
}
)cpp");
  REQUIRE(S.Diagnostics.empty());

  ParamAccess A = S.param("walk", "out");
  CHECK(A.WritesCoverRange);
  CHECK(A.CoverageDims == 2);
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.WidthParam == 2);
  CHECK(A.Grid.PlaneRowsParam == 3);
  // Planes 0, then 1 .. nz - 2, then nz - 1: 2 + trips of k = 1 .. nz - 1.
  CHECK(A.Grid.PlanesConst == 2);
  CHECK(A.Grid.PlanesPerTrip == 1);
  CHECK(A.Grid.TripBoundParam == 4);
  CHECK(A.Grid.TripOffset == -1);
  CHECK(A.Grid.TripStart == 1);

  A = S.param("fixedPlanes", "out");
  REQUIRE(A.Grid.Valid);
  CHECK(A.Grid.PlanesConst == 4);
  CHECK(A.Grid.PlanesPerTrip == 0);

  // A plane never stored, two planes per store, a step that is not a
  // plane, a work-item that may stop first: no coverage.
  for (const char *K : {"skipsAPlane", "twoSteps", "otherStride", "leavesEarly"}) {
    INFO(K);
    CHECK_FALSE(S.param(K, "out").WritesCoverRange);
  }
}
