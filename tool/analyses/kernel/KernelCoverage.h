#pragma once
// Coverage forms: how a kernel's store is proved to cover a buffer, so that
// the planner may skip copying the buffer to the device before a dispatch.
// A store at a linear index of the work-item ids covers the range (`out[kc.x]
// = …`), or min(range, n) under a bound guard `if (kc.x < n)`; a grid store
// covers rows x width elements (`a[y * w + x]`, GridCoverage), which the
// runtime checks at each launch; a volume walked plane by plane (Rodinia
// hotspot3D) covers its planes. Kept apart from KernelAccess.cpp, which
// infers what a kernel reads and writes, because deciding that a write is
// whole is its own, longer argument.

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <vector>

namespace ferry {


/// A covering store whose index is a grid, `b[row * width + col]` with
/// `width` a scalar parameter: `a[y * w + x]` over a 2-D range, or, in a
/// loop `for (j = 0; j < rows; ++j)`, `v[i + j * n]` (Rodinia cfd). It
/// covers the first rows * width elements exactly when the columns reach
/// the width, which only the dispatch's values say: the rewriter passes them
/// to the runtime (`ferry::grid`), which checks at each launch.
struct GridCoverage {
  bool Valid = false;
  /// The range dimension of the column id; -1: a loop's counter (a row
  /// per work-item, `out[kc.x * n + j]` for j < m).
  int ColDim = 0;
  /// The parameter of a `col < n` guard, or of the column loop's bound.
  int ColBoundParam = -1;
  /// A column loop's bound when it is a constant.
  std::optional<long long> ColCount;
  int WidthParam = -1;    ///< the scalar parameter that is the row width
  /// Or a constant row width (`#define W 8`), when WidthParam is -1.
  std::optional<long long> WidthConst;
  int RowDim = -1;        ///< the range dimension of the row id; -1: a loop
  /// The parameter of a `row < m` guard, or of the loop's bound.
  int RowBoundParam = -1;
  /// A loop's bound when it is a constant (`j < NVAR`).
  std::optional<long long> RowCount;
  /// A volume walked plane by plane (Rodinia hotspot3D: `int c = i + j *
  /// nx;`, a store at `out[c]`, `c += nx * ny`, in and around one counted
  /// loop): each plane is width x PlaneRows elements, and the store covers
  /// PlanesConst + PlanesPerTrip * trips planes, where trips = max(0,
  /// TripBoundParam + TripOffset - TripStart) (no TripBoundParam: a loop
  /// with a constant bound, already folded into PlanesConst).
  int PlaneRowsParam = -1;
  long long PlanesConst = 1;
  long long PlanesPerTrip = 0;
  int TripBoundParam = -1;
  long long TripOffset = 0;
  long long TripStart = 0;
};

/// A term of the first element a covering store writes when its index is
/// the linear index plus an offset (`out[kc.x + n]`, `next[(kc.y + 1) *
/// kc.maxX + kc.x]`): Coef times the product of the dispatch's global sizes
/// in RangeDims (0 for kc.maxX) and of the scalar parameters Params.
struct OffsetTerm {
  long long Coef = 1;
  std::vector<int> RangeDims;
  std::vector<int> Params;
  bool operator==(const OffsetTerm &O) const {
    return Coef == O.Coef && RangeDims == O.RangeDims && Params == O.Params;
  }
};

/// What the covering store of one buffer parameter covers.
struct Coverage {
  bool Covers = false;
  /// Per range dimension, the parameter `n` of a `kc.x < n` (or `kc.y`,
  /// `kc.z`) guard around the store; -1 where none.
  int DimBound[3] = {-1, -1, -1};
  GridCoverage Grid;
  int BoundParam = -1;
  int Dims = 0;
  /// The store's index is the linear index plus this sum (empty: plus
  /// nothing): it covers [offset, offset + what the range covers).
  std::vector<OffsetTerm> Offset;
  /// Dimensions of the index a `< n` guard bounds (the store must use one
  /// of the same dimensions for `n` to bound what it covers).
  int BoundDims = 0;
  /// The covering store, and the statement every work-item that makes it
  /// runs to its end (the body, or an `if (in range)` block).
  const clang::Expr *Store = nullptr;
  const clang::Stmt *Scope = nullptr;
};

/// The store of the kernel's parameter `ParamIndex` that every work-item
/// makes (a plain, bounded or grid store, or a plane walk), if any.
Coverage findCoverage(const clang::FunctionDecl *Kernel,
                      unsigned ParamIndex);

/// `x[i] = 0; for (…) x[i] += …;`: after the covering plain store, every use
/// of the parameter is an element at the same linear index, inside the
/// store's scope. Each work-item then reads only what it wrote first, so the
/// host's contents are never read.
bool readsOnlyOwnWrites(const clang::FunctionDecl *Kernel,
                        const clang::ParmVarDecl *Param, const Coverage &C,
                        clang::ASTContext &Ctx);

/// Every use of the parameter is an element at the covering store's index,
/// inside the statement every work-item that makes the store runs (its
/// scope): the kernel stores nothing outside what its range covers, so the
/// runtime may leave the rest of the buffer as valid as it was
/// (ferry::wo; otherwise ferry::woBeyond).
bool storesOnlyCovered(const clang::FunctionDecl *Kernel,
                       const clang::ParmVarDecl *Param, const Coverage &C,
                       clang::ASTContext &Ctx);

} // namespace ferry
