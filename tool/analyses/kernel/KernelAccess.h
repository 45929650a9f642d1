#pragma once
// What each kernel does to each buffer parameter: inferred from its body and
// every helper it calls, checked against the FERRY_RO/WO/RW annotations.

#include "analyses/Access.h"
#include "analyses/kernel/KernelCoverage.h"
#include "model/ProgramModel.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ferry {

struct ParamAccess {
  const clang::ParmVarDecl *Param = nullptr;
  unsigned Index = 0; ///< position in the kernel's parameter list
  Access Inferred = Access::None;
  DeclaredAccess Declared = DeclaredAccess::None;
  /// The kernel stores to every element the range addresses (`out[kc.x] = …`
  /// on every path, or under a guard that only drops out-of-range items).
  bool WritesCoverRange = false;
  /// When the covering store sits under `if (kc.x < n)`, the parameter index
  /// of `n`: then the store covers min(range, n) elements.
  int CoverageBoundParam = -1;
  /// How many range dimensions the covering index enumerates: 1 for
  /// `kc.x`, 2 for `kc.y * kc.maxX + kc.x`, 3 with z. A dispatch over a range
  /// of other dimensionality is not covered.
  int CoverageDims = 0;
  /// The covering store is a grid (then CoverageBoundParam is -1).
  GridCoverage Grid;
  /// The covering store's index is the linear index plus this offset
  /// (Coverage::Offset): it covers what the range covers, from there.
  std::vector<OffsetTerm> CoverageOffset;
  /// Every element it reads, each work-item stored first (`x[i] = 0;` then
  /// `x[i] += …`): the reads need nothing from the host.
  bool ReadsOnlyOwnWrites = false;
  /// Every store to it is the covering store's element (storesOnlyCovered):
  /// what the range does not cover keeps its validity (ferry::wo; otherwise ferry::woBeyond).
  bool StoresOnlyCovered = false;
  /// Where the first read and first write were seen (for `ferry analyze`).
  clang::SourceLocation FirstRead, FirstWrite;
  /// The expressions that read and write first: the assignment, the
  /// compound assignment, the load, or the helper call (for diagnostics).
  const clang::Expr *FirstReadExpr = nullptr, *FirstWriteExpr = nullptr;
};

struct KernelAccessSummary {
  const clang::FunctionDecl *Kernel = nullptr;
  /// One entry per buffer (pointer) parameter, in parameter order.
  std::vector<ParamAccess> Buffers;

  const ParamAccess *forParam(unsigned Index) const;
};

/// The kernel stores every element a dispatch over a range of `RangeDims`
/// dimensions addresses, and reads none first (or the parameter is FERRY_WO,
/// the user's promise). RangeDims is 0 when the dispatch's range is unknown.
bool overwritesWholeRange(const ParamAccess &P, int RangeDims);
/// The kernel needs the device copy valid before it runs: it reads the
/// buffer, or writes only part of it.
bool needsDeviceCopyBefore(const ParamAccess &P, int RangeDims);
/// The kernel leaves the device copy newer than the host's.
bool leavesDeviceNewer(const ParamAccess &P);

/// Per-function summaries for pointer and reference parameters, cached, so
/// that helper calls at any depth reuse them.
class FunctionAccessCache {
public:
  /// Access of each parameter of F (None for parameters that are neither
  /// pointers nor references). F must have a body.
  const std::vector<Access> &summary(const clang::FunctionDecl *F);
  /// Parameters the pointer or reference F returns may point into
  /// (`float *row(float *p, int i) { return p + i; }` returns into 0): what
  /// a caller does through the result, it does to those arguments.
  const std::set<unsigned> &returnsInto(const clang::FunctionDecl *F);

private:
  std::map<const clang::FunctionDecl *, std::vector<Access>> Cache;
  std::map<const clang::FunctionDecl *, std::set<unsigned>> Returns;
  std::map<const clang::FunctionDecl *, bool> InProgress;
  /// What a recursive call sees: every parameter read and written. Kept per
  /// function (map nodes do not move) because callers hold the reference.
  std::map<const clang::FunctionDecl *, std::vector<Access>> WorstCase;
};

/// Summarises one kernel; reports an error for every annotation the body
/// contradicts (a FERRY_RO or const parameter written, a FERRY_WO one read).
KernelAccessSummary analyzeKernelAccess(clang::ASTContext &Ctx,
                                        const clang::FunctionDecl *Kernel,
                                        FunctionAccessCache &Cache);

std::string declaredAccessName(DeclaredAccess D);

} // namespace ferry
