#pragma once
// Who else could write a buffer's elements, unnamed: a pointer kept in a
// place that outlives a call (PointerHolders, LongLivedPlaces), or code
// Ferry cannot see (HiddenCode). The keeps between computes
// (KeptBetweenComputes.h) and the loops that leave buffers on the device
// (LeftOnDeviceInLoops.h) rule out both; a file's summary records both for
// the other files of its target (plan/FileSummary.h).

#include "model/FerryTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ferry {

bool declaredInSystemHeader(const clang::Decl *D);

/// Whether a value of some type can hold a pointer, reference or iterator
/// through which the elements of a `Buffer<Elem>` (or the buffer) may be
/// written: `int *`, `Buffer<int> *`, `void *`, a pointer to an object
/// holding such buffers (`Model *`), a struct or a standard container of
/// those, a lambda or a std::function (whose captures may be).
class PointerHolders {
public:
  /// `ReadOnlyToo`: through which they may be read, too (`const int *`).
  explicit PointerHolders(bool ReadOnlyToo = false) : ReadOnlyToo(ReadOnlyToo) {}
  bool holds(clang::QualType T, clang::QualType Elem) {
    return holds(T, Elem, 0);
  }
  bool readOnlyToo() const { return ReadOnlyToo; }

private:
  bool holds(clang::QualType T, clang::QualType Elem, int Depth);
  /// A pointer or reference to P.
  bool pointsTo(clang::QualType P, clang::QualType Elem, int Depth);
  static bool partOf(clang::QualType P, clang::QualType Elem, int Depth);

  bool ReadOnlyToo;
  std::map<std::pair<const clang::CXXRecordDecl *, const clang::Type *>, bool>
      Records;
};

/// Whether calling F may run code Ferry cannot see (a function with no
/// body here, a virtual call, a call through a pointer or a std::function),
/// which could write a buffer through a pointer stashed where no name
/// shows it.
class HiddenCode {
public:
  /// For a function with no body here: whether it may, when another Ferry
  /// source of the target describes it (its summary's `runs`,
  /// plan/TargetSummaries.h), or, making a summary, the callback that
  /// records the function. Unset: it may.
  std::function<bool(const clang::FunctionDecl *)> Elsewhere;

  bool reaches(const clang::FunctionDecl *F);
  /// Whether running S (lambdas written in it included) may: its calls, the
  /// constructors and destructors it runs (of its locals and temporaries,
  /// and `delete`'s), a user's `operator new` or `delete`, and the default
  /// arguments and member initialisers it evaluates.
  bool in(const clang::Stmt *S);
  /// Whether destroying an object of type T may (its destructor, those of
  /// its members and bases; a standard container's, those of the types its
  /// arguments name).
  bool destroys(clang::QualType T);

private:
  /// The members' and bases' destructors that run after RD's own.
  bool destroysParts(const clang::CXXRecordDecl *RD);
  std::map<const clang::FunctionDecl *, bool> Known;
};

/// Every variable and class member of the translation unit (outside system
/// headers) that outlives a call: where compute code or a helper could
/// stash a pointer to a buffer's elements.
struct LongLivedPlaces {
  std::vector<const clang::ValueDecl *> Places;
  /// A global or static variable reaches buffers by value (a global
  /// buffer, a struct of them), which a parameter may be.
  bool GlobalBuffers = false;

  explicit LongLivedPlaces(clang::ASTContext &Ctx);
};

/// The element types whose buffers' elements some long-lived place of the
/// unit can reach through a pointer: for writing them (`Writes`), and for
/// reading them too (`Reads`). Each is its canonical spelling (`float`,
/// `struct Particle`), or "*" for every type (a `void *`, a callable). The
/// types tried are the unit's: its buffers' element types, the arithmetic
/// types and its own classes; a type it does not know it can reach only as
/// "*" does. A unit that turns a pointer into an integer anywhere reaches
/// "*".
struct PointerPlaceTypes {
  std::vector<std::string> Writes, Reads;
  /// LongLivedPlaces::GlobalBuffers of the same unit.
  bool GlobalBuffers = false;
};
PointerPlaceTypes pointerPlaceTypes(clang::ASTContext &Ctx);

/// The spellings pointerPlaceTypes gives Elem and the types of its parts
/// (members, at any depth, and array elements): a place of another file
/// that points to a part of an element reaches the element's buffer, though
/// that file may not know the element's type (`float *` into a
/// `Buffer<Vec3>` of a struct only this file declares).
std::vector<std::string> pointerPlaceSpellings(clang::QualType Elem);

} // namespace ferry
