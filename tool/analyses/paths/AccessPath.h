#pragma once
// How Ferry names a buffer: one concept, the access path, in this folder.
// A path starts at a root, a variable (a parameter, a local, a captured
// one), `this`, or a variable with static storage (StaticRoots.h), and
// goes through steps: members held by value (MemberSteps.h) and, last, the
// elements of a standard container, which one known only at run time
// (ElementSteps.h). The table of the buffer objects a function's paths
// name is ObjectTable.h, keyed by PathKey below.
//
// Access paths: how a buffer inside an object is named from a root (a
// parameter, a local, a captured variable, `this`) through members held by
// value, at any depth: `this->grid_.cur` is the root `this` and the path
// {grid_, cur}; `sim.state_` is `sim` and {state_}.
//
// Within one call a path from a fixed root names one buffer, so the
// object tables key members by (root, path), and a method's effects on its
// object are stated per path (HostAccess.h), whatever depth the buffer
// sits at. A path goes through by-value members only: a reference or
// pointer member (`Grid &g_`) could be rebound, so what it reaches is a
// guess, as is a member holding buffers in a form no path spells (an array
// of buffers, a base class's).

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <set>
#include <string>
#include <vector>

namespace ferry {

/// The members from a root object to a buffer, a container of buffers, or
/// (as the last step, when nothing finer can be said) a member holding
/// buffers in a form no path spells.
using FieldPath = std::vector<const clang::FieldDecl *>;

/// A buffer (or container of buffers) as the object tables key it: its
/// root, a variable or, for `this`, the function it is in, and the members
/// from there (none for the variable itself).
using PathKey = std::pair<const clang::ValueDecl *, FieldPath>;

/// The root a member expression names its buffer from, and the path below
/// it: `this->grid_.cur` gives `this` and {grid_, cur}; `p->x` gives `p`
/// and {x}. `Arrow` says whether the root is reached through `->`. Null
/// when the member is not a field.
const clang::Expr *memberPathRoot(const clang::MemberExpr *ME, FieldPath &Path,
                                  bool *Arrow = nullptr);

/// The member expressions inside ME's path, before its last member
/// (`this->grid_` in `this->grid_.cur`): a visitor that takes the path whole
/// at its outer member skips them.
void pathLinks(const clang::MemberExpr *ME,
               std::set<const clang::MemberExpr *> &Out);

/// The buffers held, at any depth, inside the by-value member that `Prefix`
/// ends in: one path per buffer or container member. A member holding
/// buffers no path can spell leaves itself in Out (an opaque path, see
/// isOpaquePath), so that its callers guess what it holds.
void bufferLeaves(const FieldPath &Prefix, std::vector<FieldPath> &Out);

/// Every path to a buffer inside an object of class RD (its buffer and
/// container members, and the leaves of the members holding them by value).
std::vector<FieldPath> bufferPathsOf(const clang::CXXRecordDecl *RD);

/// The element types of the buffers RD's own fields hold, at any depth of
/// members held by value (not its bases'), each once; a null type where a
/// member holds buffers of several types or of one no path shows.
std::vector<clang::QualType> ownBufferElements(const clang::CXXRecordDecl *RD);

/// Adds Element to a set of element types unless it is there (a null type,
/// "of any type", once).
void addElementOnce(std::vector<clang::QualType> &Elements,
                    clang::QualType Element);

/// A path that ends in a member holding buffers no path spells: what it
/// names is a guess of pathElement's type.
bool isOpaquePath(const FieldPath &Path);

/// The element type of the buffers a path names (null: several types).
clang::QualType pathElement(const FieldPath &Path);

/// Two paths from one root that part at some member (`grid_.cur` and
/// `grid_.next`): they name different objects. False where one is a prefix
/// of the other (`grid_` holds `grid_.cur`).
bool pathsDiverge(const FieldPath &A, const FieldPath &B);

/// `grid_.cur`: the path as C++ spells it after its root.
std::string pathSpelling(const FieldPath &Path);

/// Whether code in F may spell every member of the path (memberNameableIn).
bool pathNameableIn(const FieldPath &Path, const clang::FunctionDecl *F);

} // namespace ferry
