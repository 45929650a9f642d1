#pragma once
// Which buffers the host leaves alone between two computes, so that their
// device copies can outlive the compute that made them (issue 22).
//
// Each Accelerator::compute starts a new epoch in which the runtime counts
// every device copy as stale, because the host may have written anything
// since the previous compute returned. Where Ferry proves it did not, the
// rewriter writes `acc.keepOnDevice(b);` before the compute, and the runtime
// carries b's validity over instead (docs/how-ferry-decides.md).
//
// For a function G of the main file that runs computes, a forward data flow
// on Clang's CFG of G follows each buffer G owns (a local `Buffer<T>`, a
// `Buffer<T>&` parameter, or a buffer held by value, at any depth, inside a
// local object or an object reference parameter, `st.u` of `State st;`,
// `m.grid.cur` of `Model &m`, by its path) through four facts, any subset of
// which may hold at a point (the join is their union):
//
//   Fresh    made by its declaration (or, for one G's caller owns, its
//            device copy forgotten at G's start: ForgottenAtEntry), and in
//            no compute since (none that can reach it): it has no device
//            copy the next compute could keep, so host writes leave
//            nothing stale;
//   Clean    in a compute since, and not written on the host after it;
//   Dirty    the host may have written it since the last compute returned;
//   Escaped  (for good) a pointer, reference or iterator to it or to its
//            elements was kept, or it went where Ferry does not follow: it
//            may be written later without being named.
//
// A write (collectHostEvents, HostEvents.h: element stores, writes through
// functions it is passed to) turns Clean into Dirty; a swap or a move makes
// it Dirty whatever it was; an escape makes it Escaped; a compute statement
// makes every buffer its lambda names Clean (the compute ends with the host
// current) and leaves a buffer it cannot reach Fresh (a local it does not
// name; one the caller owns where the lambda captures nothing that may be
// it), unless the buffer is Clean and neither Dirty nor Escaped there: then a keep written before
// that compute carries its state through it, and it stays as it was (the
// keep is written only where a later compute keeps the buffer); reads
// change nothing.
// A call to a function that may reach code Ferry cannot see writes every
// buffer. At a compute statement, the buffers the compute is handed that
// are neither Dirty nor Escaped on any path, and Clean on some, are kept.
//
// What a pointer could write without naming the buffer is excluded up
// front, per element type: a global, a static or a class member that can
// hold a mutable pointer to the elements (`int *`, `Buffer<int> *`), a
// variable of G of such a type that a compute lambda captures, and, for
// G's parameters (whose callers may hold such pointers), another parameter
// of such a type or a global buffer of that element type.

#include "analyses/host/HostAccess.h"
#include "analyses/lifetime/LeftOnDeviceInLoops.h"
#include "analyses/paths/AccessPath.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <set>
#include <vector>

namespace ferry {

/// The buffers one compute call keeps on the device.
struct KeptAtCompute {
  /// The `acc.compute(…)` call and the statement it is.
  const clang::CallExpr *Compute = nullptr;
  const clang::Stmt *Statement = nullptr;
  /// The function the statement is in.
  const clang::FunctionDecl *Function = nullptr;
  /// The buffers kept (a local `Buffer<T>` or a `Buffer<T>&` parameter of
  /// Function, or a local object or object parameter holding the buffer at
  /// the path beside it, `st.u`, or Function itself for its object,
  /// `this->grid_.u`), in the order the compute hands them over.
  std::vector<const clang::ValueDecl *> Buffers;
  /// Per buffer: empty, or its path inside the object Buffers names.
  std::vector<FieldPath> Paths;
  /// The function whose plan starts the compute: the entry the lambda calls,
  /// or the lambda's call operator when it is planned itself; null when
  /// neither is known here (an entry defined in another Ferry source).
  const clang::FunctionDecl *Entry = nullptr;
  /// Per buffer, the declaration Entry's plan knows it by (a parameter of
  /// the entry, or the captured variable), when Entry is set.
  std::vector<const clang::ValueDecl *> EntryDecls;
  /// For a lambda that only calls a compute function: that function (with
  /// or without a body here), and per buffer the parameter it is bound to;
  /// null and -1 for a planned lambda. Another Ferry source defining the
  /// function learns them from this file's summary (plan/FileSummary.h).
  const clang::FunctionDecl *Callee = nullptr;
  std::vector<int> Params;
  /// Per buffer: some path reaches the compute with the buffer in no compute
  /// since it was made (it has no device copy yet, and keeping it keeps
  /// nothing there).
  std::vector<bool> New;
  /// Buffers the compute is not handed, kept through it all the same: the
  /// function has not written them since the compute that last used them,
  /// and a later compute that may follow keeps them. The runtime carries a
  /// kept state one epoch only, so without this line a compute in between
  /// (two computes alternating in a loop) would leave them stale. Nothing
  /// plans them here: the compute's own plan never names them.
  std::vector<const clang::ValueDecl *> Carried;
  std::vector<FieldPath> CarriedPaths;
};

/// Every compute statement of the main file's functions that keeps at least
/// one buffer, in source order. `Planned`: the functions Ferry plans, here
/// or in another Ferry source (a compute lambda among them is planned
/// itself); `Entries`: those a compute starts. A lambda whose body is one
/// call hands its buffers to a compute when the callee is FERRY_COMPUTE,
/// planned, or an entry. `Loops`, when given, receives the loops whose
/// computes may leave buffers on the device until they end (the same flow
/// judges the host code between their computes), in source order.
std::vector<KeptAtCompute>
buffersKeptBetweenComputes(clang::ASTContext &Ctx,
                           const std::set<const clang::FunctionDecl *> &Planned,
                           const std::set<const clang::FunctionDecl *> &Entries,
                           HostSummaryCache &Host,
                           std::vector<LeftOnDeviceInLoop> *Loops = nullptr);

/// A function whose computes keep (or carry) buffers its caller owns: a
/// `Buffer<T>&` parameter, or a buffer inside an object reference parameter
/// (`m.grid.cur`). The caller may have written them since its last compute
/// returned, so the rewriter writes `ferry::forgetDeviceCopies(…)` as the
/// function's first line, and the flow starts them as new buffers: from
/// there a host write leaves nothing stale, and the function's first compute
/// may keep them (carrying a stale state, the runtime copies them in).
struct ForgottenAtEntry {
  const clang::FunctionDecl *Function = nullptr;
  /// The parameters (or Function itself, for `this`), and per one the
  /// path inside it (empty for a buffer).
  std::vector<const clang::ValueDecl *> Buffers;
  std::vector<FieldPath> Paths;
};

/// Whether a kept buffer's root is owned by the caller of `Function`: one
/// of its parameters, or Function itself (its object, `this`).
bool ownedByCaller(const clang::ValueDecl *Root,
                   const clang::FunctionDecl *Function);

/// How a line before a compute of `Function` names the buffer at Path below
/// Root: `st.grid.u`; `this->grid_.u` where Root is Function (its object).
std::string keptSpelling(const clang::ValueDecl *Root, const FieldPath &Path);

/// Per function with computes that keep a buffer its caller owns, those
/// buffers, in the order the keeps name them.
std::vector<ForgottenAtEntry>
forgottenAtEntry(const std::vector<KeptAtCompute> &Kept);

/// Per entry defined in the main file, the declarations of what some
/// compute call keeps for it (ProgramPlan::MayStayOnDevice). An entry
/// inline in a header starts every buffer stale, as before: each file that
/// includes it plans it, and their copies must be the same.
std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>>
mayStayOnDevice(const std::vector<KeptAtCompute> &Kept);

} // namespace ferry
