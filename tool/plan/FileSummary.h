#pragma once
// What one Ferry source tells the other Ferry sources of its target: per
// function it defines, the local facts a caller in another file needs to
// plan a call to it as precisely as a call within one file. Plain data,
// written as JSON by `ferry summarize` and read by `ferry rewrite
// --summaries`.
//
// A file's summary holds only what that file shows: its functions' own host
// accesses and dispatches, and their calls to other functions (by USR, with
// which parameter each argument is). Chains and recursion across files are
// composed by the reader (plan/TargetSummaries.h), so a summary never depends
// on another file's and regenerating one never forces another to change.

#include "analyses/Access.h"
#include "analyses/host/HostEvents.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ferry {

/// Bumped when the meaning of a field changes: a reader ignores (with a
/// warning) a summary of another version.
inline constexpr int FileSummaryVersion = 1;

struct SummaryCall {
  std::string Callee; ///< USR
  std::string CalleeName;
  /// Per argument of the call: the caller's parameter it names (`f(x)`,
  /// `f(&x)`, `f(*x)` with x a parameter), or -1 when it names none of the
  /// caller's (a local, a scalar).
  std::vector<int> Args;
  /// Per argument: what the contract's rule for a call Ferry cannot see
  /// makes of it (read; also written unless passed as const), for a callee
  /// no summary describes.
  std::vector<Access> Unseen;
  /// Every buffer argument is a name the caller can bring home itself (a
  /// buffer variable, `&b`), not an element of a container or a pointer
  /// that may point to several.
  bool ExactArgs = true;
};

/// One buffer a function hands only to kernels (FunctionSummary::KernelOnly).
struct KernelOnlyPath {
  int Param = -1; ///< its parameter, or -1 for a member function's object
  std::vector<std::string> Path; ///< the members below it (USRs)
  bool Written = false;          ///< some kernel it is handed to may write it
};

/// What a member function's body does on the host to the buffer at one
/// path of its object (FunctionSummary::Members).
struct MemberPathAccess {
  std::vector<std::string> Path; ///< the members, by USR
  Access Mode = Access::None;
  /// It may keep a pointer or reference to the buffer (or reach it through
  /// an alias of `this` not followed): a caller counts it escaped.
  bool Escapes = false;
};

struct FunctionSummary {
  std::string Usr;
  std::string Name;
  /// Visible to other files (external linkage): callable from them.
  bool External = false;
  bool Compute = false;    ///< FERRY_COMPUTE
  bool Lambda = false;     ///< the call operator of a lambda given to acc.compute
  /// For a lambda whose body is a single call: that callee (a lambda that
  /// only calls one compute function is not planned itself).
  std::string SingleCallee;
  bool Dispatches = false; ///< dispatches a kernel in its own body
  /// What it does to each parameter on the host, counting only its own
  /// body and the bodies it sees in this file (calls in `Calls` add theirs).
  std::vector<Access> Params;
  /// Per parameter, the elements of its buffer the function may touch, when
  /// bounded (HostSummaryCache::ranges), with each parameter it names
  /// spelled `__ferry_param_N` (a declaration in another file may name
  /// them otherwise, or not at all). Kept only for parameters it hands to
  /// no call, whose effects this file cannot bound.
  std::vector<std::optional<ElementRange>> Ranges;
  /// A caller cannot use `Params`: the function returns a pointer into an
  /// argument, or one of its arguments could not be tied to a parameter.
  /// Its callers treat it as a call Ferry cannot see.
  bool Opaque = false;
  /// The parameters whose buffer it keeps nothing of once it returns (no
  /// reference or pointer to it stored: analyses/lifetime/ExitLiveness.h).
  std::vector<unsigned> KeepsNothing;
  /// Its direct calls to functions not defined in this translation unit,
  /// and to functions of this file (so the reader can follow chains).
  std::vector<SummaryCall> Calls;
  /// The buffers it is handed (a buffer reference parameter, or a buffer
  /// at a path inside an object parameter or its own object) that nothing
  /// but kernels uses in it (analyses/lifetime/LeftOnDeviceInLoops.h): a
  /// caller's loop of computes calling it may leave them on the device.
  std::vector<KernelOnlyPath> KernelOnly;
  /// For a member function that runs on an object (not a constructor or a
  /// destructor): what its body, and the bodies of this file it calls, do
  /// on the host to the buffers of its object, per path; a path it leaves
  /// alone is not listed. A call it makes to a function without a body
  /// here counts by the rule for a call Ferry cannot see. Not recorded
  /// (nullopt) for other functions.
  std::optional<std::vector<MemberPathAccess>> Members;
  /// Running it may run code that no Ferry source describes: a virtual call,
  /// a call through a pointer or a std::function, a global buffer named
  /// (HiddenWriters.h). False in a summary that does not say (`runs`
  /// absent) reads as true.
  bool RunsHidden = true;
  /// The functions without a body in this file that running it may run
  /// (directly, or through the bodies of this file it calls), by USR: it
  /// runs hidden code when one of them does, or when no summary describes one.
  std::vector<std::string> RunsElsewhere;
  /// A constructor that makes each buffer member of its object anew and
  /// calls nothing but the runtime (analyses/lifetime/MadeFresh.h): the
  /// buffers of an object it makes have no device copy yet.
  bool MakesFresh = false;
};

/// A private buffer field this file names (analyses/lifetime/ComputeOnlyMembers.h).
struct PrivateFieldUse {
  std::string Field, Class; ///< USRs
  /// Code here that may run outside a compute names it (anything but a
  /// planned function, or a constructor or destructor of its class).
  bool Outside = false;
  /// ...and may write it: some such use is not a read through const.
  bool OutsideWrites = false;
};

/// A class with private buffer fields: the methods it declares, and those
/// with a body in this file (USRs). `Open`: friends or nested classes may
/// name its members too.
struct ClassMethods {
  std::string Class;
  std::vector<std::string> Declared, Defined;
  bool Open = false;
};

/// A polymorphic class of this unit holding buffers, itself or in a base:
/// an override of its may run on them where another file's code sees only
/// a base (`Stepper &s = *makeBody(); s.step(cc)`).
struct PolymorphicHolder {
  std::string Class;              ///< USR
  std::vector<std::string> Bases; ///< every base, at any depth (USRs)
  /// Per class among Class and its bases with buffers in fields of its own
  /// (USR): their element types (elementSpelling; "*": one no path shows).
  std::map<std::string, std::vector<std::string>> Holds;
};

struct FileSummary {
  std::string Source; ///< the file, as given to `ferry summarize`
  std::vector<FunctionSummary> Functions;
  /// Functions named here other than by a direct call from a function of
  /// this file (their address taken, called from a lambda that is not
  /// planned): a dispatching one must then bring its buffers home itself.
  std::vector<std::string> OtherUses;
  /// Per function of another file this file calls from an acc.compute
  /// lambda (and only so): the buffer parameters every such call binds to a
  /// local buffer nobody uses after that compute (analyses/lifetime/ExitLiveness.h).
  std::map<std::string, std::vector<unsigned>> DeadAfterCompute;
  /// What `DeadAfterCompute` takes for granted of functions of other files
  /// (USR, parameter): that they keep nothing of that argument. A reader
  /// whose summaries do not confirm each one ignores `DeadAfterCompute`.
  std::vector<std::pair<std::string, unsigned>> DeadAssumes;
  /// Per compute function this file starts computes with (here or in
  /// another file): the buffer parameters some compute call here keeps on
  /// the device (`acc.keepOnDevice`, analyses/lifetime/KeptBetweenComputes.h). The
  /// function's plan, wherever it is made, starts them device-unknown.
  std::map<std::string, std::vector<unsigned>> KeptOnDevice;
  /// Private buffer fields named here, and their classes' methods: a field
  /// no file names outside compute code, of a class whose every method has
  /// a body in some file, stays on the device (TargetSummaries).
  std::vector<PrivateFieldUse> PrivateFields;
  /// The file's code casts const away somewhere (ComputeOnlyMembers.h).
  bool CastsAwayConst = false;
  std::vector<ClassMethods> Classes;
  /// The element types whose buffers' elements some variable or class
  /// member of this file that outlives a call can reach through a pointer,
  /// for writing (`Writes`) and for reading too (`Reads`), spelled as
  /// pointerPlaceTypes gives them ("*": any). Absent from a summary: any.
  std::vector<std::string> PointerWrites{"*"}, PointerReads{"*"};
  /// A global or static variable of this file (a static local included)
  /// holds buffers by value: a caller's parameter may be one of them, which
  /// this file's functions write by name. Absent from a summary: true.
  bool GlobalBuffers = true;
  /// The polymorphic classes of this unit that hold buffers. Absent from
  /// an older summary: none.
  std::vector<PolymorphicHolder> PolymorphicHolders;
  /// The element types (elementSpelling; "*": any) of the buffers this
  /// unit's lambdas and function objects reach (CallableReach.h): a call
  /// through a std::function elsewhere may run one. Absent from an older
  /// summary: any.
  std::vector<std::string> CallableElements{"*"};
};

/// The summary of the main file of `Ctx`.
FileSummary summarizeFile(clang::ASTContext &Ctx, llvm::StringRef Source);

llvm::json::Value toJSON(const FileSummary &S);
/// Null, with `Error` set, when `V` is not a summary of this version.
std::optional<FileSummary> summaryFromJSON(const llvm::json::Value &V,
                                           std::string &Error);

/// The USR clang gives `F`, the same in every translation unit that
/// declares it (static functions' include their file).
std::string usrOf(const clang::Decl *D);

} // namespace ferry
