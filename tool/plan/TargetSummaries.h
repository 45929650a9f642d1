#pragma once
// The summaries of every Ferry source of a target, composed: what the
// rewrite of one file needs to know about the others.
//
// Each file's summary (plan/FileSummary.h) holds local facts and calls by
// USR; this composes them over the whole target, following chains and
// recursion across files to a fixpoint:
//   * planned: as within one file, a function reached from a compute
//     function (or a planned acc.compute lambda) that reaches a dispatch;
//   * host access of a function that is not planned: its own, joined with
//     that of every function it calls with its parameters, each callee by
//     its summary, or by the contract's rule for a call Ferry cannot see
//     when no summary describes it;
//   * who calls whom, so that a planned function called only from planned
//     functions of any file can leave buffers on the device ("internal").
//
// The target's Ferry sources are taken to be every caller of a planned
// function (docs/multi-file.md): code that is not a Ferry source cannot
// dispatch, so it reaches a planned function only through acc.compute.

#include "analyses/lifetime/ComputeOnlyMembers.h"
#include "plan/FileSummary.h"

#include <map>
#include <optional>
#include <set>

namespace ferry {

class TargetSummaries {
public:
  /// `Self` is the summary of the file being rewritten, made from its AST
  /// (a summary file of the same source is replaced by it).
  /// `Incomplete`: a summary of the target could not be read, so its
  /// file's calls are unknown: a dispatching function another file may
  /// call is planned as such, no function here may take a call from another
  /// file to start a compute or to leave its buffers on the device.
  TargetSummaries(std::vector<FileSummary> Others, FileSummary Self,
                  bool Incomplete = false);

  bool planned(const std::string &Usr) const { return Planned.count(Usr); }
  /// Host access per parameter of a function another file defines, or null
  /// when a caller must treat the call as one Ferry cannot see (unknown,
  /// opaque, or planned: a planned callee is handed its buffers instead).
  const std::vector<Access> *hostAccess(const std::string &Usr) const;
  /// The elements of each parameter's buffer it may touch, where its own
  /// file bounds them (FunctionSummary::Ranges); null where hostAccess is.
  const std::vector<std::optional<ElementRange>> *
  hostRanges(const std::string &Usr) const;
  /// Some planned function of another file calls it: it does not start a
  /// compute, whatever this file shows.
  bool calledByPlannedElsewhere(const std::string &Usr) const;
  /// Every use of it in the other files is a direct call, from a planned
  /// function, with buffers the caller can name: it may leave buffers on
  /// the device for them.
  bool onlyPlannedCallsElsewhere(const std::string &Usr) const;
  /// The parameters of a compute function defined here that every other
  /// file calling it binds to buffers dead after the compute; nullopt when
  /// no other file names it.
  std::optional<std::set<unsigned>> deadElsewhere(const std::string &Usr) const {
    return deadIn(Usr, Files.size() - 1);
  }
  /// The same over every file, this one included: for a compute function
  /// inline in a header, planned in each file that includes it, whose
  /// copies must all decide alike (nullopt when no file names it).
  std::optional<std::set<unsigned>> deadAnywhere(const std::string &Usr) const;
  /// The parameters of a compute function that some compute call keeps on
  /// the device: in the other files (`AndHere` false) or in every file,
  /// this one included (for one inline in a header, whose copies must all
  /// decide alike).
  std::set<unsigned> keptOnDevice(const std::string &Usr, bool AndHere) const;
  /// What code outside computes in any file of the target does to the
  /// private buffer field `Field` of class `Class` (USRs), where every method
  /// the class declares has a body in some file; Any otherwise
  /// (analyses/lifetime/ComputeOnlyMembers.h).
  OutsideUse privateFieldUse(const std::string &Field,
                             const std::string &Class) const;
  /// What a function another file defines does to the buffer at `Path`
  /// (member USRs) below its parameter `Param` (-1: its object), where its
  /// summary says that only kernels use it (FunctionSummary::KernelOnly).
  const KernelOnlyPath *kernelOnly(const std::string &Usr, int Param,
                                   const std::vector<std::string> &Path) const;
  /// Its parameter `Index` keeps nothing of the buffer it is given.
  bool keepsNothing(const std::string &Usr, unsigned Index) const;
  /// The file being rewritten uses it nowhere.
  bool unusedHere(const std::string &Usr) const;
  /// Defined in some summary.
  bool known(const std::string &Usr) const { return Functions.count(Usr); }
  /// Calling it may run code that no summary describes, through any file
  /// (FunctionSummary::RunsHidden, RunsElsewhere); true for a function no
  /// summary describes.
  bool runsHidden(const std::string &Usr) const {
    return !Functions.count(Usr) || Hidden.count(Usr);
  }
  /// What a member function another file defines does on the host to the
  /// buffer at `Path` (member USRs) in its object: None for a path its
  /// summary does not list; nullopt when no summary says (the function is
  /// unknown, planned, or its summary has no `members`).
  std::optional<MemberPathAccess>
  memberAccess(const std::string &Usr,
               const std::vector<std::string> &Path) const;
  /// Some file of the target other than this one has a long-lived place that
  /// can reach the elements of buffers of the element type spelled `Elem`
  /// through a pointer, for writing (for reading too: `ReadsToo`).
  bool pointerPlaceElsewhere(const std::string &Elem, bool ReadsToo) const;
  /// Some file of the target other than this one has a global or static
  /// variable holding buffers by value (FileSummary::GlobalBuffers).
  bool globalBuffersElsewhere() const {
    for (std::size_t I = 0; I + 1 < Files.size(); ++I)
      if (Files[I].GlobalBuffers)
        return true;
    return false;
  }
  /// The element types (elementSpelling; "*": any) the classes of other
  /// files derived from the class `Base` hold, in themselves and in their
  /// bases outside `BaseAndAncestors` (Base's USR and its bases'), each
  /// once: an override there may run on them
  /// (FileSummary::PolymorphicHolders). `{"*"}` where a summary is missing.
  std::vector<std::string>
  derivedElementsElsewhere(const std::string &Base,
                           const std::set<std::string> &BaseAndAncestors) const;
  /// The element types (elementSpelling; "*": any) of the buffers the
  /// lambdas and function objects of the other files reach
  /// (FileSummary::CallableElements); `{"*"}` where a summary is missing.
  std::vector<std::string> callableElementsElsewhere() const;
  /// A constructor another file defines makes its object's buffers anew
  /// (FunctionSummary::MakesFresh).
  bool makesFresh(const std::string &Usr) const {
    auto It = Functions.find(Usr);
    return It != Functions.end() && !It->second.Self &&
           It->second.Summary->MakesFresh;
  }

private:
  /// Over the first `Count` files.
  std::optional<std::set<unsigned>> deadIn(const std::string &Usr,
                                           std::size_t Count) const;
  struct Entry {
    const FunctionSummary *Summary;
    bool Self;
  };
  std::vector<FileSummary> Files;
  std::map<std::string, Entry> Functions;
  std::set<std::string> Planned;
  std::map<std::string, std::vector<Access>> Access_;
  std::set<std::string> OtherUsesElsewhere, UsedHere;
  std::set<std::string> Hidden;
  bool Incomplete = false;
};

} // namespace ferry
