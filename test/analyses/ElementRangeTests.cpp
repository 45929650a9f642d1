// Element ranges of host events (issue 22): the exact texts of the elements
// each event touches, as the planner would write them before the statement
// (HostEvent::Range), and whether a write covers them. Each statement is
// walked on its own, as the planner walks it.

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {
const char *Prelude = R"cpp(
#include <ferry/ferry.hpp>
#include <algorithm>
#include <cstring>
#include <vector>
using FB = ferry::Buffer<float>;
struct Particle { float x, y; };
FERRY_KERNEL void k(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }
int nextIndex(int i);
)cpp";

std::string withPrelude(const char *Body) { return std::string(Prelude) + Body; }

/// "MODE TARGETS RANGE" for each event of the statement on Marker's line.
std::vector<std::string> at(Source &S, const std::string &Function,
                            const std::string &Marker) {
  std::vector<std::string> Out;
  for (const HostEvent &E : S.eventsAt(Function, Marker))
    Out.push_back(eventName(E) + " " + S.targets(E) + " " + rangeText(E));
  return Out;
}

using Lines = std::vector<std::string>;
} // namespace

TEST_CASE("ranges: one element", "[ranges]") {
  Source S(withPrelude(R"cpp(
#define AT(i) ((i) + 1)
#define NEXT(i) nextIndex(i)
#define SLOT 5
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB *p,
                     ferry::Buffer<Particle> &ps, int i, int n, bool c) {
  a[i] = 1.0f;                 // @single
  a[3] = a[i + 1];             // @const
  (*p)[i] += 2.0f;             // @pointer
  FB &r = a;
  r[n - 1] = 0.0f;             // @reference
  if (c) a[0] = 1.0f;          // @conditional
  a[i++] = 0.0f;               // @sideeffect
  a[nextIndex(i)] = 0.0f;      // @call
  a[NEXT(i)] = 0.0f;           // @callmacro
  a[AT(i)] = a[SLOT];          // @macro
  ps[i].x = 1.0f;              // @member
  ps[i] = Particle{1.0f, 2.0f}; // @struct
  c ? a[1] = 1.0f : a[2] = 2.0f; // @ternary
  a[i] = a[i] + (n = 2);       // @assigned
  a[n] = (n = 2, 1.0f);        // @countchanged
}
)cpp"));
  CHECK(at(S, "f", "@single") == Lines{"write a from i count 1, covers"});
  CHECK(at(S, "f", "@const") == Lines{"read a from i + 1 count 1",
                                      "write a from 3 count 1, covers"});
  CHECK(at(S, "f", "@pointer") == Lines{"read-write *p from i count 1"});
  CHECK(at(S, "f", "@reference") == Lines{"write a from n - 1 count 1, covers"});
  // A store the branch may skip writes its element, but does not cover it.
  CHECK(at(S, "f", "@conditional") == Lines{"write a from 0 count 1"});
  // i changes in the statement; a call could do anything.
  CHECK(at(S, "f", "@sideeffect") == Lines{"write a whole"});
  CHECK(at(S, "f", "@call") == Lines{"write a whole"});
  CHECK(at(S, "f", "@callmacro") == Lines{"write a whole"});
  // A macro of names and operators is spelled from what it expands to; a
  // constant is its value.
  CHECK(at(S, "f", "@macro") == Lines{"read a from 5 count 1",
                                      "write a from i + 1 count 1, covers"});
  // One member of an element: the element, not all of it written.
  CHECK(at(S, "f", "@member") == Lines{"write ps from i count 1"});
  CHECK(at(S, "f", "@struct") == Lines{"write ps from i count 1, covers"});
  CHECK(at(S, "f", "@ternary") == Lines{"write a from 1 count 1",
                                        "write a from 2 count 1"});
  // n is assigned in the statement: the read's text holds, the write's
  // index does not.
  CHECK(at(S, "f", "@assigned") ==
        Lines{"read a from i count 1", "write a from i count 1, covers"});
  CHECK(at(S, "f", "@countchanged") == Lines{"write a whole"});
}

TEST_CASE("ranges: counted loops", "[ranges]") {
  Source S(withPrelude(R"cpp(
void bump(int &i);
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, int lo, int hi,
                     int k, int r, int w, int n, unsigned u, long long m) {
  float x = 0;
  int i = 0;
  for (int i = lo; i < hi; ++i) a[i] = 0.0f;                 // @plain
  for (int i = lo; i <= hi; ++i) x += a[i + k];              // @inclusive
  for (int j = lo; j != hi; ++j) a[r * w + j] = 1.0f;        // @row
  for (i = 0; i < n; ++i) b[i] = 2.0f;                       // @assigned
  for (int i = 0; i < 8; i++) a[i + 2] = b[i];               // @constant
  for (int i = lo; hi > i; i += 1) a[i - 1] = 0.0f;          // @reversed
  for (int i = lo; i < hi; ++i) { if (i % 2) a[i] = 0.0f; }  // @branch
  for (int i = lo; i < hi; ++i) a[i] = a[i + 1];             // @shared
  for (int i = lo; i < hi; ++i) { a[i] = 0.0f; bump(i); }    // @counter
  for (int i = lo; i < hi; ++i) { a[i] = 0.0f; hi--; }       // @bound
  for (int i = lo; i < hi; ++i) { a[i] = 0.0f; if (x > 0) break; } // @break
  for (int i = lo; i < hi; ++i) a[2 * i] = 0.0f;             // @stride
  for (int q = 0; q < n; ++q) for (int j = 0; j < w; ++j) a[q * w + j] = 0.0f; // @nested
  for (int q = 0; q < n; ++q) for (int j = 0; j < w; ++j) a[r * w + j] = 0.0f; // @outer
  for (unsigned j = 0; j != u; ++j) a[j] = 0.0f;             // @wraps
  for (long long j = 0; j != m; ++j) a[j] = 0.0f;            // @signedne
  for (int i = lo; i < hi; ++i) {
    x += 1.0f;
    a[i] = x;                                                // @innerstmt
  }
}
)cpp"));
  CHECK(at(S, "f", "@plain") ==
        Lines{"write a from lo count ferry::tripCount(lo, hi), covers"});
  CHECK(at(S, "f", "@inclusive") ==
        Lines{"read a from lo + k count ferry::tripCount(lo, hi + 1)"});
  CHECK(at(S, "f", "@row") ==
        Lines{"write a from r * w + lo count ferry::tripCount(lo, hi), covers"});
  // A counter declared before the loop and assigned in its init.
  CHECK(at(S, "f", "@assigned") ==
        Lines{"write b from 0 count ferry::tripCount(0, n), covers"});
  CHECK(at(S, "f", "@constant") ==
        Lines{"read b from 0 count 8", "write a from 2 count 8"});
  CHECK(at(S, "f", "@reversed") ==
        Lines{"write a from lo - 1 count ferry::tripCount(lo, hi), covers"});
  CHECK(at(S, "f", "@branch") ==
        Lines{"write a from lo count ferry::tripCount(lo, hi)"});
  // Trip i reads a[i + 1] before trip i + 1 writes it: nothing covers.
  CHECK(at(S, "f", "@shared") ==
        Lines{"read a from lo + 1 count ferry::tripCount(lo, hi)",
              "write a from lo count ferry::tripCount(lo, hi)"});
  // The counter changed through a reference, the bound in the body.
  CHECK(at(S, "f", "@counter") == Lines{"write a whole"});
  CHECK(at(S, "f", "@bound") == Lines{"write a whole"});
  CHECK(at(S, "f", "@break") ==
        Lines{"write a from lo count ferry::tripCount(lo, hi)"});
  CHECK(at(S, "f", "@stride") == Lines{"write a whole"});
  // Two counters in one index: no range (not even the hull).
  CHECK(at(S, "f", "@nested") == Lines{"write a whole"});
  // The outer counter not in the index: the inner loop's row, every trip of
  // a loop that may not run: not covered.
  CHECK(at(S, "f", "@outer") ==
        Lines{"write a from r * w count ferry::tripCount(0, w)"});
  // `!=` on a 32-bit unsigned counter could come round; on a signed one it
  // cannot.
  CHECK(at(S, "f", "@wraps") == Lines{"write a whole"});
  CHECK(at(S, "f", "@signedne") ==
        Lines{"write a from 0 count ferry::tripCount(0, m), covers"});
  // The loop's own body statement, walked on its own: its counter is a
  // name like any other there.
  CHECK(at(S, "f", "@innerstmt") == Lines{"write a from i count 1, covers"});
}

TEST_CASE("ranges: algorithms and memory functions", "[ranges]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, ferry::Buffer<int> &d,
                     std::vector<float> &v, std::vector<char> &h, FB *q,
                     int lo, int hi, int n, int k, std::size_t bytes) {
  std::copy(a.begin() + lo, a.begin() + hi, b.begin());        // @copy
  std::copy_n(a.data() + 2, n, &b[k]);                         // @copyn
  std::fill(b.begin() + 1, b.end(), 0.0f);                     // @fill
  std::fill_n(b.data(), 4, 0.0f);                              // @filln
  std::copy(v.begin(), v.end(), b.begin() + 2);                // @fromvector
  std::copy(a.begin(), a.end(), b.begin());                    // @whole
  std::copy(q->begin(), q->end(), b.begin() + k);              // @throughpointer
  std::memcpy(b.data() + k, a.data(), n * sizeof(float));      // @memcpy
  std::memcpy(&b[k], a.data(), bytes);                         // @bytes
  std::memset(b.data(), 0, 10);                                // @memset
  std::memmove(b.data(), b.data() + 1, 12);                    // @memmove
  std::memcpy(h.data(), d.data(), sizeof(char) * 16384);       // @pathfinder
  { std::copy(b.begin(), b.end(), v.begin()); v.push_back(1.0f); } // @resized
}
)cpp"));
  CHECK(at(S, "f", "@copy") == Lines{"read a from lo count hi - lo",
                                     "read a from lo count hi - lo",
                                     "write b from 0 count hi - lo, covers"});
  CHECK(at(S, "f", "@copyn") ==
        Lines{"read a from 2 count ferry::tripCount(0, n)",
              "write b from k count ferry::tripCount(0, n), covers"});
  CHECK(at(S, "f", "@fill") ==
        Lines{"write b from 1 count b.size() - 1, covers",
              "write b from 1 count b.size() - 1, covers"});
  CHECK(at(S, "f", "@filln") == Lines{"write b from 0 count 4, covers"});
  CHECK(at(S, "f", "@fromvector") ==
        Lines{"write b from 2 count v.size(), covers"});
  CHECK(at(S, "f", "@whole") == Lines{"read a from 0 count a.size()",
                                      "read a from 0 count a.size()",
                                      "write b from 0 count a.size(), covers"});
  CHECK(at(S, "f", "@throughpointer") ==
        Lines{"read *q from 0 count q->size()", "read *q from 0 count q->size()",
              "write b from k count q->size(), covers"});
  // n * sizeof(float) bytes are n floats; another byte count rounds up and
  // may end inside an element.
  CHECK(at(S, "f", "@memcpy") == Lines{"read a from 0 count n",
                                       "write b from k count n, covers"});
  CHECK(at(S, "f", "@bytes") == Lines{"read a from 0 count (bytes + 3) / 4",
                                      "write b from k count (bytes + 3) / 4"});
  CHECK(at(S, "f", "@memset") == Lines{"write b from 0 count 3"});
  // The source is read before the overlapping destination is written.
  CHECK(at(S, "f", "@memmove") == Lines{"read b from 1 count 3",
                                        "write b from 0 count 3, covers"});
  // Rodinia pathfinder: 16384 bytes of an int buffer are its first 4096.
  CHECK(at(S, "f", "@pathfinder") == Lines{"read d from 0 count 4096"});
  // A statement that may resize a container: no size() in its texts.
  CHECK(at(S, "f", "@resized") == Lines{"read b whole", "read b whole"});
}

TEST_CASE("ranges: the counted-write forms as ranges", "[ranges]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, const float *p,
                     int n, int K, int J) {
  a[0] = 1.0f;                                       // @first
  std::copy(p, p + n, b.begin());                    // @pointerrange
  int m = 0;
  for (int q = 0; q <= K; q++)                       // @running
    for (int j = 0; j < J; j++) {
      a[m] = 1.0f;
      m++;
    }
}
)cpp"));
  std::vector<HostEvent> First = S.eventsAt("f", "@first");
  REQUIRE(First.size() == 1);
  CHECK(First[0].WrittenCountConst == 1);
  CHECK(rangeText(First[0]) == "from 0 count 1, covers");
  CHECK(First[0].Range->FirstConst == 0);
  CHECK(First[0].Range->CountConst == 1);
  std::vector<HostEvent> Copy = S.eventsAt("f", "@pointerrange");
  REQUIRE(Copy.size() == 1);
  CHECK(Copy[0].WrittenCount);
  CHECK(rangeText(Copy[0]) == "from 0 count n, covers");
  CHECK_FALSE(Copy[0].Range->CountConst);
  std::vector<HostEvent> Running = S.eventsAt("f", "@running");
  REQUIRE(Running.size() == 1);
  CHECK(Running[0].WrittenCountInner);
  CHECK(rangeText(Running[0]) ==
        "from 0 count ferry::tripCount(0, K + 1) * ferry::tripCount(0, J), "
        "covers");
}

TEST_CASE("ranges: pointers from data()", "[ranges]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, int i, int n) {
  FB *u = &a, *v = &b;
  float *p = u->data();
  float *q = b.data();
  q += 1;
  p[i] = 1.0f;                                       // @subscript
  *(p + 3) = 2.0f;                                   // @deref
  for (int j = 0; j < n; ++j) p[j + 1] = 0.0f;       // @loop
  q[0] = 1.0f;                                       // @stepped
  for (int s = 0; s < n; ++s) {
    std::swap(u, v);
    float *r = u->data();
    r[0] = 1.0f;                                     // @swapped
  }
}
)cpp"));
  CHECK(at(S, "f", "@subscript") == Lines{"write a from i count 1, covers"});
  CHECK(at(S, "f", "@deref") == Lines{"write a from 3 count 1, covers"});
  CHECK(at(S, "f", "@loop") ==
        Lines{"write a from 1 count ferry::tripCount(0, n), covers"});
  // q is stepped: where it points is not known.
  CHECK(at(S, "f", "@stepped") == Lines{"write b whole"});
  // u may be a or b here: the event names both, and the buffer as a line
  // before the statement can: `*u`.
  std::vector<HostEvent> E = S.eventsAt("f", "@swapped");
  REQUIRE(E.size() == 1);
  CHECK(S.targets(E[0]) == "a|b");
  CHECK(E[0].Spelling == "*u");
  CHECK(rangeText(E[0]) == "from 0 count 1, covers");
  // Walked whole, the body's statements are inside the walk: no name from
  // before it fits.
  for (const HostEvent &Ev : S.events("f"))
    CHECK(Ev.Spelling.empty());
}

TEST_CASE("ranges: a pointer every use of which is followed only binds",
          "[ranges]") {
  Source S(withPrelude(R"cpp(
struct Holder { float *p; };
void keep(float *p);
float *stashed;
static void stash(float *p) { stashed = p; }
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, FB &c, FB &d,
                     FB &e, int n) {
  float *p = a.data() + 1;          // @followed
  p[0] = 1.0f;
  std::memcpy(p + 2, p, 4);
  if (p != nullptr) p++;
  float *q = b.data();              // @stored
  Holder h;
  h.p = q;
  float *r = c.data();              // @lambda
  auto set = [r] { r[0] = 1.0f; };
  float *s = n > 0 ? d.data() : e.data(); // @chained
  float *t = s + 1;
  t[0] = 2.0f;
  float *x;
  x = e.data();                     // @assigned
  std::memset(x, 0, 4);
  float *z = e.data();              // @opaque
  keep(z);
  float *y = a.data();              // @helper
  stash(y);
}
)cpp"));
  auto Binds = [&](const std::string &Marker) {
    std::vector<std::string> Out;
    for (const HostEvent &E : S.eventsAt("f", Marker))
      Out.push_back(eventName(E) + " " + S.targets(E) +
                    (E.OnlyBinds ? " only binds" : ""));
    return Out;
  };
  CHECK(Binds("@followed") == Lines{"escape a only binds"});
  // Stored in a struct, captured by a lambda: used where Ferry cannot see.
  CHECK(Binds("@stored") == Lines{"escape b"});
  CHECK(Binds("@lambda") == Lines{"escape c"});
  // Through another pointer that is followed too.
  CHECK(Binds("@chained") == Lines{"escape d only binds", "escape e only binds"});
  // Re-pointed by assignment, handed to a library function.
  CHECK(Binds("@assigned") == Lines{"escape e only binds"});
  // Handed to a helper Ferry summarises, here or in another Ferry source
  // (a declaration only may be one): it may keep the pointer unseen.
  CHECK(Binds("@opaque") == Lines{"escape e"});
  CHECK(Binds("@helper") == Lines{"escape a"});
}

// A helper's summary bounds what it touches of a buffer parameter or
// member by its own parameters; at a call, the range is spelled in the
// call's arguments, and only where those mean the same before the
// statement (issue 22, OMPDart clenergy's copyatoms).
TEST_CASE("ranges: through a helper's summary", "[ranges]") {
  Source S(withPrelude(R"cpp(
static void fill(FB &b, int lo, int count) {
  for (int i = 0; i < count; ++i)
    b[lo + i] = 0.0f;
}
static void fillEarly(FB &b, int count) {
  if (count > 100)
    return;
  for (int i = 0; i < count; ++i)
    b[i] = 1.0f;
}
static void bump(FB *b, int k) { (*b)[0] += k; }
static void grown(FB &b, int n) {
  n = n * 2;
  b[n] = 0.0f;
}
static void twoParts(FB &b) { b[0] = 1.0f; b[1] = 2.0f; }
int g;
static void global(FB &b) { b[g] = 1.0f; }
struct Holder {
  FB data;
  void poke(int i) { data[i] = 3.0f; }
};
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, Holder &h, int n,
                     int m, bool c) {
  fill(a, n, m);               // @fill
  fillEarly(a, n + 1);         // @early
  bump(&a, 5);                 // @pointer
  if (c) fill(a, 0, 4);        // @branch
  fill(a, n++, 4);             // @sideeffect
  fill(a, static_cast<short>(n), 4); // @narrow
  grown(a, n);                 // @changed
  twoParts(a);                 // @two
  global(a);                   // @global
  h.poke(n - 1);               // @member
}
)cpp"));
  CHECK(at(S, "f", "@fill") ==
        Lines{"write a from n count ferry::tripCount(0, m), covers"});
  // An early return may skip the loop: bounded, not covered.
  CHECK(at(S, "f", "@early") ==
        Lines{"write a from 0 count ferry::tripCount(0, (n + 1))"});
  CHECK(at(S, "f", "@pointer") == Lines{"read-write a from 0 count 1"});
  CHECK(at(S, "f", "@branch") == Lines{"write a from 0 count 4"});
  // n changes in the statement; a narrowing conversion changes the value.
  CHECK(at(S, "f", "@sideeffect") == Lines{"write a whole"});
  CHECK(at(S, "f", "@narrow") == Lines{"write a whole"});
  // The helper changes its parameter before it uses it; two accesses of
  // different elements; a global the call site could shadow.
  CHECK(at(S, "f", "@changed") == Lines{"write a whole"});
  CHECK(at(S, "f", "@two") == Lines{"write a whole"});
  CHECK(at(S, "f", "@global") == Lines{"write a whole"});
  CHECK(at(S, "f", "@member") == Lines{"write h.data from (n - 1) count 1, covers"});
}
