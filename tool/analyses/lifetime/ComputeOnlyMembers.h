#pragma once
// Private buffer members that only compute code uses (issue 33: privacy
// proves deadness).
//
// C++ access control closes the world: only a class's own members and its
// friends can name a private member. When Ferry sees every one of their
// bodies in this translation unit, it knows every place the member's buffer
// is named. If each of those is a constructor or destructor of the class, or
// code that runs only inside a compute (a planned function, or a host
// function called only from such code, at any depth), then no host code
// outside a compute ever reads or writes that buffer. Its host copy is then
// dead when a compute returns (a scratch member, `flux_`, `tend_`, needs no
// copy home), and nothing outside computes can make its device copy stale:
// the device copy carries into every later compute
// (ComputeContext::keepOnDevice), where the plan starts it unknown on both
// sides and the run-time state decides each copy.
//
// A weaker fact closes the same world for a member the host reads between
// computes (a model's `print() const`): when every use outside compute code
// can only read it (const: in a const method, through a const method or a
// const reference; no cast, no address taken), nothing outside a compute
// can make its device copy stale either. The exits still bring it home, and
// its device copy carries into later computes
// (ComputeContext::keepDeviceCopy): it is not sent again.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

#include <functional>
#include <set>
#include <vector>

namespace ferry {

struct BufferObject;

/// What code outside computes may do to a private buffer field.
enum class OutsideUse { None, Reads, Any };
/// Where a class's members are not all in this file (defined in several
/// Ferry sources), the target decides from every file's facts
/// (plan/FileSummary.h): for one of its private buffer fields, what the
/// files' code outside computes does to it, provided every method the class
/// declares has a body in some file (Any otherwise).
using ComputeOnlyElsewhere = std::function<OutsideUse(const clang::FieldDecl *)>;

struct PrivateMembers {
  /// Only compute code names them.
  std::set<const clang::FieldDecl *> ComputeOnly;
  /// Code outside computes names them, and only reads them.
  std::set<const clang::FieldDecl *> HostReadsOnly;
};

/// The private fields holding buffers by value (a `Buffer<T>`, or a struct of
/// them at any depth) of the translation unit's
/// classes that only compute code names, and those that code outside
/// computes only reads. `Planned`: the functions Ferry plans (they
/// dispatch, so they run inside a compute).
PrivateMembers
computeOnlyMembers(clang::ASTContext &Ctx,
                   const std::set<const clang::FunctionDecl *> &Planned,
                   const ComputeOnlyElsewhere &Elsewhere = nullptr);

/// A function's buffer object (ObjectTable.h) that is one of `Members`
/// (a set computeOnlyMembers gave), or held by value at any depth inside
/// one: `this->flux_`, `sim.flux_`, `this->grid_.cur`. The plan starts it
/// unknown on both sides, and its exits keep its device copy for the next
/// compute.
bool isComputeOnlyMember(const BufferObject &O,
                         const std::set<const clang::FieldDecl *> &Members);

/// This file's share of those facts, for its summary: per private buffer
/// field it names, whether some code here that may run outside a compute
/// names it (counting only planned functions, constructors and destructors
/// as inside: a host helper's callers may be in other files); per class
/// with such fields, the methods it declares and those defined here.
struct PrivateFieldFacts {
  struct Field {
    const clang::FieldDecl *Decl = nullptr;
    bool Outside = false;
    /// Some use outside may write it (not only read).
    bool OutsideWrites = false;
  };
  struct Class {
    const clang::CXXRecordDecl *Decl = nullptr;
    std::vector<const clang::CXXMethodDecl *> Declared, Defined;
    /// Friends or a template: nothing is known of who names its members.
    bool Open = false;
  };
  std::vector<Field> Fields;
  std::vector<Class> Classes;
  /// Code here casts const away: in no file may a const use count as a read.
  bool CastsAwayConst = false;
};
PrivateFieldFacts
privateFieldFacts(clang::ASTContext &Ctx,
                  const std::set<const clang::FunctionDecl *> &Planned);

} // namespace ferry
