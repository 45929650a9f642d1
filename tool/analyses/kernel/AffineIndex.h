#pragma once
// Kernel subscripts as affine forms of the work-item ids (issue 31): an
// index is a constant, plus integer multiples of kc.x/y/z, kc.localX/Y/Z and
// kc.groupX/Y/Z, plus integer multiples of terms every work-item of a group
// computes alike (a scalar parameter, kc.localSizeX, `n / 2`, a variable set
// under uniform control). `s[63 - kc.localX]` is {localX: -1, constant 63};
// `tile[kc.localY * 16 + kc.localX + step]` is {localY: 16, localX: 1,
// step: 1}. It is read from the Clang AST (WorkItemVariance says which
// terms are the same for every work-item), never from the source text, and
// it is plain data: the lints compare two forms with the functions below.
//
// Where an index is not such a sum (`kc.x % 64`, a value loaded per item, a
// product of two ids) the form says so, and every question about it answers
// "not sure": the lints warn only where the answer is sure.

#include "analyses/kernel/WorkItemVariance.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ferry {

/// The ids an affine index may multiply, in this order.
enum AffineId : int {
  GlobalX, GlobalY, GlobalZ,
  LocalX, LocalY, LocalZ,
  GroupX, GroupY, GroupZ,
  AffineIdCount
};

struct AffineIndex {
  /// The index is a sum of the shape above; the rest means nothing without.
  bool Affine = false;
  long long Constant = 0;
  /// Coefficients of the ids (AffineId order); zero where absent.
  std::array<long long, AffineIdCount> Ids{};
  /// Terms every work-item of the dispatch computes alike, by a key that is
  /// equal for equal expressions and for reads of one variable, with their
  /// coefficients: "kc.localSizeX", "v:step", "e:<hash>".
  std::map<std::string, long long> Uniform;
  /// Terms every work-item of one group computes alike and groups may not
  /// (built from the group ids in a way that is not a sum: `kc.groupX *
  /// kc.localSizeX`).
  std::map<std::string, long long> PerGroup;
  /// Keys (of either map) whose value may change while the function runs
  /// (a variable assigned after its declaration, a loop counter): the same
  /// key at two points of the function need not be the same value.
  std::set<std::string> Unstable;

  /// Whether any id has a nonzero coefficient.
  bool dependsOnIds() const;
  /// kc.x/y/z written as the group's first id plus kc.localX/Y/Z: the form
  /// within one group, with only local ids left and each group's offset a
  /// per-group term (the work-items of a group share every other term).
  AffineIndex withinGroup() const;
};

/// The affine form of an integer expression of function F (a kernel or a
/// helper it calls), using V (its WorkItemVariance) to tell which terms are
/// the same for every work-item.
AffineIndex affineIndex(const clang::Expr *E, const clang::FunctionDecl *F,
                        const WorkItemVariance &V);

/// The number of work-items of a group along each dimension.
using GroupShape = std::array<long long, 3>;

/// Whether two different work-items of one group of `Shape`, a and b,
/// surely reach the same element when a indexes it with A and b with B
/// (forms of the same function, from withinGroup() or with local ids
/// alone): every term that is not an id must cancel between A and B and be
/// stable, kc.localSizeX/Y/Z are read as `Shape`, and some a != b inside
/// the group must solve A(a) == B(b). False whenever Ferry is not sure (a
/// form that is not affine, a term that does not cancel, a search too
/// large to finish).
bool distinctItemsMeet(const AffineIndex &A, const AffineIndex &B,
                       const GroupShape &Shape);

/// Whether two different work-items of a dispatch of `Global` work-items
/// per dimension (global ids only, no group or local id in the form) surely
/// store to the same element through one index: some d != 0, |d_i| below
/// the size, with the id coefficients times d summing to zero. False
/// whenever Ferry is not sure.
bool distinctItemsCollide(const AffineIndex &A, const GroupShape &Global);

/// `{localX: -1, 63}` as `63 - kc.localX`: for tests and `ferry analyze`.
std::string affineText(const AffineIndex &A);

} // namespace ferry
