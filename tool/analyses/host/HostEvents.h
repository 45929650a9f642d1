#pragma once
// Host events: what host code does to buffers. Every expression in a stretch
// of compute-function code that touches a buffer, in evaluation order,
// classified as read, write (partial or whole), escape (handed to something
// Ferry does not follow: counted as read and write), or an operation that
// moves a buffer's contents (create, swap, move). The planner places
// transfers between these events.
//
// The C++ traps are handled here: a non-const operator[] used only as an
// rvalue reads; a range-for by value or const& reads, by & may write; data()
// and begin() hand out pointers: kept mutable they escape, and their later
// uses count where they happen; std algorithms read or write according to the
// iterators they get; a buffer passed to a function with a visible body uses
// that function's summary (HostAccess.h), to an invisible one it is read, and
// also written (an escape) unless passed as const. docs/analyze.md lists
// every rule.

#include "analyses/Access.h"
#include "analyses/paths/ObjectTable.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <string>
#include <vector>

namespace ferry {

class HostSummaryCache;

/// The elements of a buffer a host event may touch: [First, First + Count),
/// in elements of the buffer. The texts are C++ that, evaluated right before
/// the statement the events were collected for (where the planner puts its
/// lines), give a range containing every element the event touches while
/// that statement runs: a variable they name is neither declared nor changed
/// inside it (a loop's own counter is replaced by the loop's bounds), and
/// they call nothing but `ferry::tripCount` and `size()` of a container no
/// call in the statement may resize. ElementRanges.h says which forms give
/// one; docs/analyze.md lists them.
struct ElementRange {
  std::string First; ///< "i", "r * w + lo", "0"
  /// "1", "ferry::tripCount(lo, hi)", "n": not negative where the program
  /// is valid (a count that may be, copy_n's, is `ferry::tripCount(0, n)`;
  /// `hi - lo` of an iterator range and an MPI count are as written).
  std::string Count;
  std::optional<long long> FirstConst, CountConst; ///< when constants
  /// For a write: every element of the range is written, by this event, on
  /// every path through the statement, before anything in the statement
  /// reads it: the host copy of the range needs nothing from the device
  /// first.
  bool Covers = false;
  /// For a point-to-point MPI receive (MPI_Recv, the receive of
  /// MPI_Sendrecv): every element is written when the message received fills
  /// the count given; MPI leaves the tail of a shorter message's range as it
  /// was, so Covers is false. A planner that may assume matching messages
  /// reads this.
  bool CoversIfFull = false;
};

enum class HostEventKind {
  Access,       ///< reads and/or writes elements
  Create,       ///< a local buffer comes into being (fresh on the host)
  Swap,         ///< std::swap of two buffers: their contents and states trade
  Reset,        ///< contents moved in or out: nothing is known afterwards
};

struct HostEvent {
  HostEventKind Kind = HostEventKind::Access;
  const clang::Expr *Site = nullptr; ///< where it happens (for reasons)
  const clang::Expr *Buffer = nullptr; ///< the buffer expression, as written
  ObjectRefs Targets;
  ObjectRefs Others; ///< the second buffer of a Swap
  Access Mode = Access::None;
  /// Every element is written without being read first (std::fill over
  /// begin()..end()): no copy from the device is needed before it.
  bool Overwrites = false;
  /// The write covers the first N elements, N known only at run time:
  /// std::copy(y.begin(), y.end(), b.begin()) writes y.size() of them (then
  /// WrittenCountOf is `y`), std::copy_n / std::fill_n write their count
  /// argument (then WrittenCount is it). Null when not known.
  const clang::Expr *WrittenCount = nullptr;
  const clang::Expr *WrittenCountOf = nullptr;
  /// A constant count instead: `b[0] = v` writes the first 1 element (all
  /// of a one-element buffer). 0 when none.
  long long WrittenCountConst = 0;
  /// For a WrittenCount from a loop (`for (i = 0; i < n; ++i) b[i] = …;`
  /// writes the first n elements): the loop, which is where the count holds
  /// (the store itself runs once per iteration).
  const clang::Stmt *CountingLoop = nullptr;
  /// The loop's bound is inclusive (`i <= n`): the count is WrittenCount + 1.
  bool WrittenCountInclusive = false;
  /// A running index over two nested counting loops (`m = 0; for (k …) for
  /// (j …) { b[m] = …; m++; }`) writes trips(outer) x trips(inner) elements:
  /// WrittenCount bounds the outer loop, this the inner one.
  const clang::Expr *WrittenCountInner = nullptr;
  bool WrittenCountInnerInclusive = false;
  /// How the caller names the buffer when no expression of its own is it:
  /// `pair.x` for a buffer (or buffer reference) member of a struct object
  /// passed as an argument (see memberSpelling in HostEventCalls.cpp); `*u` for
  /// an access through `float *p = u->data();`, which may point into
  /// several buffers, where u names the one it does before the statement
  /// (ElementRanges::pointeeSpelling). Empty where there is no such name.
  std::string Spelling;
  std::string What; ///< a short description: "b[i] is read", "passed to show()"
  /// The buffer's elements become reachable through something the analysis
  /// does not follow further (a mutable pointer from data() kept around, a
  /// function without a visible body, a lambda capture): Mode then says what
  /// may happen through it, conservatively.
  bool Escapes = false;
  /// An escape that only binds a local pointer every use of which is an
  /// event of its own (`float *p = u->data();`, then `p[i]`, `p + N` handed
  /// to MPI_Send: FollowedPointers.h): like binding a reference, the
  /// binding itself touches nothing, and a planner may pass it by.
  bool OnlyBinds = false;
  /// The access is a call Ferry cannot see into that is handed the
  /// ComputeContext (through a function pointer, a std::function, a virtual
  /// or declared-only function): it may run kernels on what it touches, so
  /// afterwards only the run-time state knows whether the device holds a
  /// valid copy.
  bool MayRunKernels = false;
  /// The elements it may touch, when the analysis can bound them (never for
  /// an escape); absent: any of them.
  std::optional<ElementRange> Range;
};

/// "read", "write", "read-write" or "escape" for an access; "create", "swap"
/// or "move" for the other kinds.
const char *hostEventName(const HostEvent &E);

/// The buffer events of `S` in evaluation order, resolving names with
/// `Facts` (updated in place as declarations and assignments inside S bind
/// references and pointers).
std::vector<HostEvent> collectHostEvents(const clang::Stmt *S,
                                         const ObjectTable &Table,
                                         PointsTo &Facts,
                                         HostSummaryCache &Summaries);

} // namespace ferry
