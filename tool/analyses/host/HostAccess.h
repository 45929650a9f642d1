#pragma once
// What host code does to buffers, summarised per function: the access of
// each Buffer parameter, and of each buffer member a method reaches, for
// calls from compute functions. The events themselves, and the C++ rules
// that classify them, are in HostEvents.h; counted writes in
// CountedHostWrites.h.

#include "analyses/Access.h"
#include "analyses/host/CallableReach.h"
#include "analyses/paths/ObjectTable.h"
#include "analyses/paths/StaticRoots.h"
#include "analyses/host/HostEvents.h"
#include "analyses/kernel/KernelAccess.h"

#include "clang/AST/Stmt.h"

#include <functional>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace ferry {

/// What a function of another Ferry source does to the buffer at a path
/// below one of its parameters (-1: the object a member function runs on),
/// as its file's summary says; nullopt where the summary does not say that
/// only kernels use it.
using KernelUseElsewhere = std::function<std::optional<KernelUse>(
    const clang::FunctionDecl *, int Param, const FieldPath &)>;

/// What a member function of another Ferry source does to the buffer at
/// one path of its object (its summary's `members`).
struct ElsewhereMemberUse {
  Access Mode = Access::None;
  bool Escapes = false;
};

/// Per-function host summaries for Buffer parameters of helpers called from
/// compute functions.
class HostSummaryCache {
public:
  explicit HostSummaryCache(FunctionAccessCache &Pointers) : Pointers(Pointers) {}
  /// Access per parameter of F (None where the parameter is no buffer).
  const std::vector<Access> &summary(const clang::FunctionDecl *F);
  /// Per parameter of F, the elements of the buffer it names that F may
  /// touch, when every access of F's to it is bounded by the same range
  /// (HostEvent::Range), spelled in F's parameters as they are on entry
  /// (`0`, `ferry::tripCount(0, count)`): a call's argument then moves only
  /// those elements (HostEventCalls.cpp substitutes the call's arguments).
  const std::vector<std::optional<ElementRange>> &
  ranges(const clang::FunctionDecl *F);
  /// The same for the buffer at `Path` in the object M is called on, when
  /// M itself is called (not an override).
  std::optional<ElementRange> memberRange(const clang::CXXMethodDecl *M,
                                          const FieldPath &Path);
  FunctionAccessCache &pointers() { return Pointers; }
  /// For a function of another file (see Elsewhere): its ranges, in its
  /// parameters spelled `__ferry_param_N` (plan/FileSummary.h).
  std::function<const std::vector<std::optional<ElementRange>> *(
      const clang::FunctionDecl *)>
      ElsewhereRanges;
  /// The global buffers a call may touch.
  GlobalReachCache &globals() { return Globals; }
  /// A callee with no body here, defined in another Ferry source of the
  /// target: its host access as that file's summary says
  /// (plan/TargetSummaries.h), or null for a call Ferry cannot see.
  std::function<const std::vector<Access> *(const clang::FunctionDecl *)>
      Elsewhere;
  /// A callee with no body here, defined in another Ferry source: what it
  /// does to the buffer at the path below its parameter (-1: its object),
  /// where that file's summary says that only kernels use it
  /// (FunctionSummary::KernelOnly); nullopt otherwise.
  KernelUseElsewhere ElsewhereKernelUse;
  /// A callee with no body here: whether calling it may run code no Ferry
  /// source of the target describes (its summary's `runs`), and so write a
  /// buffer through a pointer kept where no name shows it. Unset: it may.
  std::function<bool(const clang::FunctionDecl *)> ElsewhereHidden;
  /// A member function with no body here, defined in another Ferry source
  /// and not planned: what its body does on the host to the buffer at Path
  /// in its object (its summary's `members`; None where it does not list
  /// the path), or nullopt where no summary says.
  std::function<std::optional<ElsewhereMemberUse>(const clang::CXXMethodDecl *,
                                                  const FieldPath &)>
      ElsewhereMembers;
  /// A callee with no body here that its file's summary does not vouch
  /// keeps nothing of its parameter's buffer (`keeps_nothing`): a caller
  /// counts the argument escaped.
  std::function<bool(const clang::FunctionDecl *, unsigned Param)> ElsewhereKeeps;
  /// Some long-lived place of another Ferry source can reach the elements
  /// of a `Buffer<Elem>` through a pointer, for writing (for reading too:
  /// `ReadsToo`) (its summary's `pointer_places`).
  std::function<bool(clang::QualType Elem, bool ReadsToo)> ElsewherePointers;
  /// Some other Ferry source has a global or static variable holding
  /// buffers by value (its summary's `global_buffers`), which a parameter
  /// may be bound to and functions of that file may write by name.
  std::function<bool()> ElsewhereGlobalBuffers;
  /// The element types (elementSpelling; "*": any) of the buffers that
  /// classes of other Ferry sources derived from Base hold, in themselves
  /// and in their bases but Base's own (their summaries'
  /// `polymorphic_buffers`): an override there may run on them.
  std::function<std::vector<std::string>(const clang::CXXRecordDecl *Base)>
      ElsewhereDerivedElements;
  /// The element types (elementSpelling; "*": any) of the buffers the
  /// lambdas and function objects of other Ferry sources reach (their
  /// summaries' `callable_buffers`): a std::function made there may run
  /// one of them here.
  std::function<std::vector<std::string>()> ElsewhereCallableElements;
  /// A constructor with no body here that another Ferry source's summary
  /// says makes its object's buffers anew (`makes_fresh`).
  std::function<bool(const clang::CXXConstructorDecl *)> ElsewhereMakesFresh;
  /// Access per buffer of the object a call of M runs on, by its path in
  /// the object (the paths MemberSteps.h says it reaches); every one read
  /// and written when an override Ferry does not see may run instead
  /// (`Virtual`).
  std::map<FieldPath, Access> memberSummary(const clang::CXXMethodDecl *M,
                                            bool Virtual);
  /// Whether M (with a body here) may keep a pointer or reference to the
  /// buffer at Path in its object, or reach it through an alias of `this`
  /// that is not followed: a caller must count it escaped.
  bool memberEscapes(const clang::CXXMethodDecl *M, const FieldPath &Path);
  /// The element types of the buffers an override of virtual M may reach
  /// that M's own class does not hold: those of every class derived from
  /// it, of this translation unit or of another Ferry source of the target
  /// (at any depth of members, in any of its bases); a null type where one
  /// holds buffers of a type no path shows, or of one this unit cannot
  /// name. Empty when no derived class holds buffers.
  const std::vector<clang::QualType> &
  overriderBufferElements(const clang::CXXMethodDecl *M);

  /// The element types of the buffers a call in Outer through a
  /// std::function or a function pointer may reach by a lambda or function
  /// object it runs (CallableReach.h), of this unit and of the target's
  /// other Ferry sources; not those the lambdas Outer makes capture by a
  /// name the call follows. A null type: of any type.
  const std::vector<clang::QualType> &
  callableElements(const clang::FunctionDecl *Outer);

private:
  FunctionAccessCache &Pointers;
  GlobalReachCache Globals;
  std::map<const clang::FunctionDecl *, std::vector<Access>> Cache;
  std::map<const clang::FunctionDecl *,
           std::vector<std::optional<ElementRange>>>
      RangeCache;
  std::map<const clang::FunctionDecl *, std::map<FieldPath, ElementRange>>
      MemberRangeCache;
  std::map<const clang::FunctionDecl *, bool> InProgress;
  /// What a recursive call sees: every parameter read and written. Kept per
  /// function (map nodes do not move) because callers hold the reference.
  std::map<const clang::FunctionDecl *, std::vector<Access>> WorstCase;
  std::map<const clang::FunctionDecl *, std::map<FieldPath, Access>>
      MemberCache;
  std::map<const clang::FunctionDecl *, std::set<FieldPath>> MemberEscapes;
  std::map<const clang::CXXMethodDecl *, std::set<FieldPath>> ElsewhereEscapes;
  std::map<const clang::CXXRecordDecl *, std::vector<clang::QualType>>
      OverriderElements;
  std::optional<std::vector<CallableReach>> Callables;
  std::map<const clang::FunctionDecl *, std::vector<clang::QualType>>
      CallableElements;
};

} // namespace ferry
