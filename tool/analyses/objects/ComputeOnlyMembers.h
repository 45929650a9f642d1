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

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

#include <functional>
#include <set>
#include <vector>

namespace ferry {

struct BufferObject;

/// Where a class's members are not all in this file (defined in several
/// Ferry sources), the target decides from every file's facts
/// (plan/FileSummary.h): for one of its private buffer fields, whether no
/// file names it outside compute code, and whether every method the class
/// declares has a body in some file.
using ComputeOnlyElsewhere = std::function<bool(const clang::FieldDecl *)>;

/// The private `Buffer<T>` fields (held by value) of the translation unit's
/// classes that only compute code names. `Planned`: the functions Ferry plans
/// (they dispatch, so they run inside a compute).
std::set<const clang::FieldDecl *>
computeOnlyMembers(clang::ASTContext &Ctx,
                   const std::set<const clang::FunctionDecl *> &Planned,
                   const ComputeOnlyElsewhere &Elsewhere = nullptr);

/// A function's buffer object (BufferObjects.h) that is one of `Members`
/// (what computeOnlyMembers gave) one step below its root: `this->flux_`,
/// `sim.flux_`, not `this->grid_.cur`. The plan starts it unknown on both
/// sides and keeps it on the device at the compute's exit.
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
  };
  struct Class {
    const clang::CXXRecordDecl *Decl = nullptr;
    std::vector<const clang::CXXMethodDecl *> Declared, Defined;
    /// Friends or a template: nothing is known of who names its members.
    bool Open = false;
  };
  std::vector<Field> Fields;
  std::vector<Class> Classes;
};
PrivateFieldFacts
privateFieldFacts(clang::ASTContext &Ctx,
                  const std::set<const clang::FunctionDecl *> &Planned);

} // namespace ferry
