#pragma once
// The element step of an access path (AccessPath.h): the buffers of a
// standard container, which one an index names known only at run time.
//
// Buffers held in standard containers: `std::vector<Buffer<T>> levels`
// (multigrid levels, a network's layers), a parameter, a local, a member of
// an object, or one a planned lambda captures.
//
// Which element an expression names (`levels[l]`, `levels.at(l)`,
// `levels.front()`, a range-for's `auto &b`, a reference bound to one) is
// known only at run time, so the elements of one container are one object
// standing for all of them: a may-alias set that every element expression
// names inexactly. The planner then guards every transfer of an element
// (the runtime's `...IfStale` forms decide by each buffer's validity bits)
// and updates the set's state weakly, so a kernel's write through one
// element expression is seen by a host read through another. At the
// compute's exit the set comes home whole, `cc.fromDeviceIfStale(levels)`,
// which the runtime runs for each element.

#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"

namespace ferry {

/// A standard container class whose elements are buffers held by value
/// (`std::vector<Buffer<T>>`, `std::array<Buffer<T>, N>`, `std::deque`…),
/// not through references or pointers.
bool isBufferContainerType(clang::QualType T);

/// T of a container of Buffer<T>; null type otherwise.
clang::QualType containerElementType(clang::QualType T);

/// The container an element expression takes its buffer from: `v[i]`,
/// `v.at(i)`, `v.front()`, `v.back()`, and `*it` for the iterator of a
/// range-for over `v` (whose loop variable is bound to it); null for
/// anything else. The container is as written (`v`, `this->levels_`,
/// `sim.levels`, a reference bound to one).
const clang::Expr *elementContainer(const clang::Expr *E);

/// A call of a container's method that may add, remove, replace or reorder
/// its buffers (`push_back`, `emplace_back`, `resize`, `erase`, `swap`,
/// assignment…): anything but element access, iteration and size queries,
/// and anything on a const container. The container expression in
/// `Container`.
bool changesElements(const clang::CallExpr *Call,
                     const clang::Expr *&Container);

} // namespace ferry
