#pragma once
// Element ranges: which elements of a buffer a host event may touch, as C++
// text the planner can write right before the statement the events were
// collected for (HostEvent::Range). One element `b[i]`; the elements a
// counted loop inside the statement walks, `b[i + k]` for i from lo to hi
// giving [lo + k, hi + k); a span handed to std::copy / fill / memcpy / an
// MPI call. Kept apart from the event walker (HostEventWalker.h) because
// proving that a text means, before the statement, what the access means
// inside it is its own argument: no variable it names may be declared or
// changed in the statement, no call it makes may do anything, and a loop's
// counter is replaced by its bounds.

#include "analyses/paths/ObjectTable.h"
#include "analyses/host/HostEvents.h"
#include "analyses/host/RangeTexts.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ferry {

/// V's value may change through a name other than its own: it is global or
/// static, a reference, or a local whose address F takes or binds to a
/// non-const reference (a callee may hold it).
bool reachableByCalls(const clang::VarDecl *V, const clang::FunctionDecl *F);
/// S calls a function that could change a variable it does not name: any
/// but a buffer's own members and a library function given only values and
/// const references (std::min).
bool callsAnything(const clang::Stmt *S);

/// The ranges of the host events of one statement (the walk's root).
class ElementRanges {
public:
  ElementRanges(const ObjectTable &Table, const clang::Stmt *Root);

  /// The element `Pointer[Index]` (Index may be null: `*Pointer`), or with
  /// Pointer null `b[Index]` of a buffer, accessed at Site: one element, or
  /// every element a counting loop inside the root walks it through (`for
  /// (i = lo; i < hi; ++i) … b[i + k]`: [lo + k, hi + k)). Covers when
  /// `WholeWrite` (the element is assigned whole) and the store runs on
  /// every path, each trip of its loop; loopWalked takes that back when the
  /// loop also touches the buffer elsewhere.
  std::optional<ElementRange> element(const clang::Expr *Site,
                                      const clang::Expr *Pointer,
                                      const clang::Expr *Index,
                                      bool WholeWrite);

  /// How many elements past its buffer's start a pointer into one points:
  /// `b.data() + a`, `b.begin() + a`, `&b[a]`, `b.end()`, `u->data() + a`,
  /// or a pointer variable every binding of which is a buffer's start
  /// (`float *p = u->data();` then `p + N`). None when not known.
  std::optional<RangeText> offsetOf(const clang::Expr *Pointer) const;
  /// The buffer element type a pointer from offsetOf points to.
  static clang::QualType pointee(const clang::Expr *Pointer);

  /// A text for the integer expression E, meaning before the root what it
  /// means where it is.
  std::optional<RangeText> spell(const clang::Expr *E) const;
  /// A count argument (copy_n's, fill_n's) as a number of elements: 0 when
  /// negative.
  std::optional<RangeText> countOf(const clang::Expr *E) const;

  /// How many elements the iterator range [First, Last) holds: the
  /// difference of their offsets when they point into one buffer
  /// (`SameBuffer`, which the caller's facts decide), `v.size()` for
  /// `v.begin(), v.end()` of a container, `n` for `p, p + n`.
  std::optional<RangeText> lengthOf(const clang::Expr *First,
                                    const clang::Expr *Last,
                                    bool SameBuffer) const;

  /// `Bytes` bytes as elements of Element: rounded up, and Exact when the
  /// byte count is provably a multiple of the element's size (a constant,
  /// or `n * sizeof(T)`).
  std::optional<RangeText> elementsIn(const clang::Expr *Bytes,
                                      clang::QualType Element,
                                      bool &Exact) const;

  /// The elements [First, First + Count) touched at Site; Covers when
  /// `Write` and Site runs whenever the root does.
  ElementRange span(const clang::Expr *Site, const RangeText &First,
                    const RangeText &Count, bool Write) const;

  /// The writes of a counted loop's store the event walker proved
  /// (CountedHostWrites.h) as a range: the running index over two nested
  /// loops writes [0, trips(outer) * trips(inner)).
  std::optional<ElementRange> countedRange(const HostEvent &E) const;

  /// After a loop's events (from First on) are walked: a store the loop
  /// covers element by element covers only if nothing else in the loop
  /// touches its buffer (`b[i] = b[i + 1]` reads elements a later trip
  /// writes).
  void loopWalked(const clang::Stmt *Loop, std::vector<HostEvent> &Events,
                  size_t First) const;

  /// How a line before the root names the buffer a pointer variable points
  /// into: `*u` for `float *p = u->data();` in the root's block, or in a
  /// block around it (the root inside an `if` or a loop there), when p is
  /// never re-pointed and nothing between that declaration and the root
  /// changes u (nor anything in the statement of that block that holds the
  /// root). Empty when there is no such name.
  std::string pointeeSpelling(const clang::VarDecl *P) const;

  /// Whether S runs every time the root does: no branch, loop or possible
  /// early exit before it inside the root.
  bool runsWhenever(const clang::Stmt *S) const;

private:
  struct Loop {
    const clang::Stmt *Stmt = nullptr;
    const clang::VarDecl *Var = nullptr;
    RangeText Lo, Hi; ///< Hi already + 1 for `<=`
  };
  std::optional<Loop> walkedLoop(const clang::ForStmt *For) const;
  bool invariant(const clang::VarDecl *V) const;
  bool declaredInRoot(const clang::VarDecl *V) const;
  bool resizesNothing() const;
  bool zeroOffsetPointer(const clang::VarDecl *P) const;
  std::optional<RangeText> spellWith(const clang::Expr *E,
                                     const clang::VarDecl *Var,
                                     const RangeText *Lo) const;
  std::optional<RangeText> offsetWith(const clang::Expr *Pointer,
                                      const clang::VarDecl *Var,
                                      const RangeText *Lo) const;
  std::optional<RangeText> leaf(const clang::Expr *E) const;
  std::optional<RangeText> sizeText(const clang::Expr *Container) const;
  void varying(const clang::Expr *E, std::set<const clang::VarDecl *> &Out) const;
  bool unitIn(const clang::Expr *E, const clang::VarDecl *V) const;
  bool wholeAssignment(const clang::Expr *Site) const;
  clang::ASTContext &Ctx() const;

  const ObjectTable &Table;
  const clang::Stmt *Root;
  /// Stores that cover their range trip by trip, with their loop.
  std::map<const clang::Expr *, const clang::Stmt *> CoveringLoop;
  mutable std::map<const clang::VarDecl *, bool> Invariant;
  mutable std::map<const clang::VarDecl *, bool> ZeroOffset;
  mutable std::optional<std::set<const clang::VarDecl *>> Declared;
  mutable std::optional<bool> Calls, Resizes;
};

} // namespace ferry
