#pragma once
// Counted host writes: a host store that writes the first n elements of a
// buffer, n known only at run time (HostEvent's WrittenCount, WrittenCountOf,
// WrittenCountConst, WrittenCountInner). A loop `for (i = 0; i < n; ++i)
// b[i] = …;`, a running index over two nested loops, std::copy / copy_n /
// fill_n from b.begin(), or `b[0] = v`. The runtime compares the count with
// the buffer's size (ComputeContext::hostWrites(b, n)): when it covers the
// buffer, no copy from the device is needed before the write. Kept apart
// from the event walker (HostEventWalker.h) because proving the count is its
// own argument about loops.

#include "analyses/paths/ObjectTable.h"
#include "analyses/host/HostEvents.h"
#include "analyses/LoopShape.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <vector>

namespace ferry {

/// The counted writes of one function's host code, found loop by loop as the
/// event walker enters them.
class CountedHostWrites {
public:
  explicit CountedHostWrites(const ObjectTable &Table) : Table(Table) {}

  /// Before For's body is walked: its stores that write a counted prefix.
  std::vector<const clang::Expr *> countedStores(const clang::ForStmt *For);
  /// After: drops the count of each of them that shares the loop with
  /// another access to its buffer (events from First on).
  void
  keepCountsOfSoleAccesses(std::vector<HostEvent> &Events, size_t First,
                           const std::vector<const clang::Expr *> &Counted);
  /// The count of W, the write event of the element store `b[i] = …` (Op):
  /// a counted store's loop bound, or 1 for `b[0]`.
  void countElementStore(HostEvent &W,
                         const clang::CXXOperatorCallExpr *Op) const;

  /// A std algorithm's write of a run-time count from a buffer's start:
  /// the count (Count, or the size of CountOf) and the argument that is the
  /// destination's begin(); Arg is the number of arguments when none.
  struct AlgorithmCount {
    const clang::Expr *Count = nullptr;
    const clang::Expr *CountOf = nullptr;
    unsigned Arg = 0;
  };
  AlgorithmCount algorithmCount(const clang::CallExpr *Call,
                                llvm::StringRef Name,
                                const PointsTo &Facts) const;

private:
  static std::vector<const clang::Stmt *> topLevel(const clang::Stmt *Body);
  static const clang::CXXOperatorCallExpr *
  elementStore(const clang::Stmt *T, const clang::VarDecl *V);
  const clang::Expr *runningIndexStore(const clang::ForStmt *Outer,
                                       const CountingLoop &L);
  static bool names(const clang::Stmt *S, const clang::VarDecl *V);
  bool isStepOf(const clang::Stmt *S, const clang::VarDecl *M) const;
  bool setToZeroJustBefore(const clang::Stmt *Loop,
                           const clang::VarDecl *M) const;
  bool boundChanges(const clang::Stmt *E, const clang::Stmt *S) const;
  static bool wholeContainer(const clang::CXXMemberCallExpr *First,
                             const clang::CXXMemberCallExpr *Last);
  const clang::Expr *pointerRangeLength(const clang::Expr *First,
                                        const clang::Expr *Last) const;
  clang::ASTContext &Ctx() const;

  const ObjectTable &Table;
  /// Stores of the loops being walked that write a counted prefix (see
  /// countedStores): the loop, and its bound.
  struct CountedStore {
    const clang::Stmt *Loop = nullptr;
    CountingLoop Outer;
    std::optional<CountingLoop> Inner; ///< a running index's inner loop
  };
  std::map<const clang::Expr *, CountedStore> CountedStores;
};

} // namespace ferry
