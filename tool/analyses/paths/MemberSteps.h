#pragma once
// Member steps of an access path (AccessPath.h): which fields a path may
// go through or end in, who may spell them, and which paths a member
// function reaches through its object.
//
// Buffers that are members of an object: a class that owns its buffers
// (`Buffer<float> state_;`) and advances them in its member functions, or a
// function that names an object's buffers (`sim.state_`, `sim->state_`).
//
// Within one call, an object's buffer members are fixed objects, like a
// global struct's members (`model.w`): `this->state_` names the same buffer
// everywhere in a member function and in the member functions it calls on
// `this`. So a function's table holds, besides the members it names itself,
// those the methods it calls on the same object reach: its caller must know
// of every buffer a call can change, to bring it home at the compute's exit.

#include "analyses/paths/AccessPath.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace ferry {

/// A field that holds a buffer: Buffer<T>, Buffer<T>& or Buffer<T>*.
bool isBufferField(const clang::FieldDecl *FD);

/// A field that holds standard containers' worth of buffers
/// (`std::vector<Buffer<T>> levels_;`, see ElementSteps.h).
bool isBufferContainerField(const clang::FieldDecl *FD);

/// A field that holds buffers inside an object of its own, by value
/// (`Grid grid_;` for `struct Grid { Buffer<float> cur, next; }`): a link
/// of an access path (`grid_.cur`, AccessPath.h), or, where no path spells
/// what it holds, a guess of the types it holds.
bool isNestedBufferField(const clang::FieldDecl *FD);

/// Whether code in F may name the member FD of an object (`obj.field`):
/// public, or F is a member of FD's class (or of a class nested in it, or a
/// lambda in one), or its friend. A line naming it elsewhere would not
/// compile.
bool memberNameableIn(const clang::FieldDecl *FD, const clang::FunctionDecl *F);

/// `E` is `this` or `*this` (through parentheses and implicit casts).
bool isThisObject(const clang::Expr *E);

/// The buffers (and buffer containers) a call of `M` reaches through its
/// object, as access paths from it (AccessPath.h): those it names through
/// `this`, at any depth of members, and those the methods it calls on
/// `this` reach. Every such path of the class when Ferry cannot see what
/// the call runs (no body, or a virtual call that an override may answer).
std::vector<FieldPath> bufferPathsReached(const clang::CXXMethodDecl *M,
                                          bool Virtual = false);

/// A call of a method of one of the program's classes (not a buffer's, not
/// the standard library's): the method, and the object it runs on when the
/// caller can name it, `this` (`OnThis`) or a variable (`sim.step(cc)`,
/// `p->step(cc)`); neither for another object (`sims[i].step(cc)`). False
/// for any other call.
struct MemberCallTarget {
  const clang::CXXMethodDecl *Method = nullptr;
  const clang::Expr *Object = nullptr; ///< the implicit object argument
  bool OnThis = false;
  const clang::ValueDecl *Variable = nullptr;
  /// An override Ferry does not look at may run instead.
  bool Virtual = false;
};
bool memberCallTarget(const clang::CallExpr *Call, MemberCallTarget &Out);

} // namespace ferry
